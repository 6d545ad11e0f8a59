/** gRPC in the page (docs/grpc.md): the request's editor with its method picker, message and composer, and the call's response. */
import type { Draft } from '../../state/drafts.js';
import type { KindView } from '../kind.js';
import { GrpcEditor } from './GrpcEditor.js';
import { cancelCall, grpcTabState, sendCall } from './grpc-tabs.js';

export const grpcView: KindView = {
  id: 'grpc',
  Editor: GrpcEditor,
  draft: (tab) => grpcTabState(tab).doc as Draft<unknown>,
  sendOrStop: (tab) => {
    const state = grpcTabState(tab);
    if (state.running.value) cancelCall(state);
    else void sendCall(state);
  },
};
