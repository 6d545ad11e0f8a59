// Process boundaries, checked by `npm run lint` (dependency-cruiser resolves every import,
// relative ones included, which eslint's no-restricted-imports patterns never matched).
// The rules are ARCHITECTURE.md's "Boundaries"; test/integration/boundaries.test.ts shows each
// one fails on a deliberate cross-import.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-process-internals',
      comment:
        "A process imports another process's pure engine/ or the shared runtime/, never its internals (main, pools, handlers, stores). " +
        'The Electron shell hosts the supervisor in its own process, as the CLI does.',
      severity: 'error',
      from: { path: '^processes/([^/]+)/', pathNot: ['\\.test\\.tsx?$', '^processes/electron/'] },
      to: { path: '^processes/([^/]+)/', pathNot: ['^processes/$1/', '^processes/[^/]+/engine/', '^processes/runtime/'] },
    },
    {
      name: 'engines-are-pure',
      comment: 'An engine is pure code any process may use: it never reaches process wiring (its own or another process\'s).',
      severity: 'error',
      from: { path: '^processes/[^/]+/engine/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^processes/', pathNot: ['^processes/[^/]+/engine/'] },
    },
    {
      name: 'protocol-stands-alone',
      comment: 'protocol/ is the shared vocabulary (messages, models, ids): it imports no process and no command.',
      severity: 'error',
      from: { path: '^protocol/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^(processes|cli)/' },
    },
    {
      name: 'ui-speaks-only-protocol',
      comment: 'The page reaches the rest only over the bus: it imports protocol/ and its own code.',
      severity: 'error',
      from: { path: '^processes/ui/' },
      to: { path: '^(processes|cli)/', pathNot: '^processes/ui/' },
    },
    {
      name: 'no-process-imports-the-cli',
      comment: 'Commands drive the processes; the processes never reach back into a command.',
      severity: 'error',
      from: { path: '^processes/' },
      to: { path: '^cli/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
