/** What a ChildProcessHandle needs to talk to its child, loaded once its first child is spawned. */
export { Peer } from '../../../protocol/peer.js';
export { streamTransport } from '../../../protocol/transport-stream.js';
export { validateCompiled } from '../../../protocol/validate-node.js';
export { messageScope } from '../../runtime/crash-policy.js';
