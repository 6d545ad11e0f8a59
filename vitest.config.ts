import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Builds dist/ first when a source is newer than it (`npm run test:quick` after an edit).
    globalSetup: ['test/support/global-setup.ts'],
    include: ['protocol/**/*.test.ts', 'processes/**/*.test.ts', 'cli/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Process-level tests spawn real children and bind real ports: keep files apart on 2 cores.
    pool: 'forks',
    maxWorkers: 2,
    // Tests run dispatch scripts in isolated-vm in the worker itself, which on Node 20 asks for
    // this (the script sandbox refuses to run without it, as a mock host would).
    execArgv: ['--no-node-snapshot'],
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
