// Lint: typescript-eslint's recommended rules, plus the Node modules the protocol, the engines
// and the UI may not use (STYLE.md, point 10). Which code may import which is checked by
// dependency-cruiser (.dependency-cruiser.cjs), which resolves relative imports too.
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['fs', 'fs/promises', 'net', 'http', 'https', 'child_process', 'os', 'path', 'worker_threads', 'stream', 'crypto', 'dns', 'tls', 'url', 'util'];
const nodeModules = nodeBuiltins.flatMap((m) => [m, `node:${m}`]);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['processes/ui/**/*.ts', 'processes/ui/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { paths: nodeModules }],
    },
  },
  {
    files: ['protocol/**/*.ts'],
    ignores: ['protocol/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['child_process', 'node:child_process', 'net', 'node:net', 'http', 'node:http'] }],
    },
  },
  {
    files: ['processes/*/engine/**/*.ts'],
    ignores: ['processes/*/engine/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['child_process', 'node:child_process'] }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
