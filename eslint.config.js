// Lint: typescript-eslint's recommended rules, plus layering rules that keep the protocol and
// the engines free of process wiring and the UI free of Node modules (STYLE.md, point 10).
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
      'no-restricted-imports': ['error', { paths: nodeModules, patterns: ['**/processes/supervisor/**', '**/processes/sender/**', '**/processes/checker/**', '**/processes/importer/**', '**/processes/mock-host/**'] }],
    },
  },
  {
    files: ['protocol/**/*.ts'],
    ignores: ['protocol/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['child_process', 'node:child_process', 'net', 'node:net', 'http', 'node:http'], patterns: ['**/processes/**', '**/cli/**'] }],
    },
  },
  {
    files: ['processes/*/engine/**/*.ts'],
    ignores: ['processes/*/engine/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['child_process', 'node:child_process'], patterns: ['**/processes/supervisor/**', '**/runtime/**', '**/main.js'] }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
