/** The sender engine: sends a resolved SendSpec with undici and returns a SendResult. */
export { send, type OpenSocket, type SendOptions, type StreamSink } from './send.js';
export { closeDispatchers } from './dispatchers.js';
export type { CookieJarPort } from './hop-cookies.js';
