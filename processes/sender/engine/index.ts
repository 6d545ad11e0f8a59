/** The sender engine: sends a resolved SendSpec with undici and returns a SendResult. */
export { send, type SendOptions, type StreamSink } from './send.js';
export { closeDispatchers } from './dispatchers.js';
export type { CookieJarPort } from './hop-cookies.js';
export { closeChannels } from './grpc/channels.js';
