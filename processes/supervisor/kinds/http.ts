/** HTTP in the supervisor: send/ resolves, sends and records an exchange (send-service.ts). */
import { asHttp } from '../../../protocol/kinds/index.js';
import { sendRequest } from '../send/send-service.js';
import type { KindService } from './kind.js';

export const httpService: KindService = {
  id: 'http',
  send: (sup, deps, projectRoot, request, signal, onProgress, backlog) => sendRequest(sup, deps, projectRoot, asHttp(request, 'An HTTP send'), signal, onProgress, backlog),
};
