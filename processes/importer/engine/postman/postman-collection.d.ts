// postman-collection ships its types as an ambient `declare module` file without pointing
// package.json at it, so no import can reach it: a reference is the only way in.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../../../node_modules/postman-collection/types/index.d.ts" />
