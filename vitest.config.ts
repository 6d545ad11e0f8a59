import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['protocol/**/*.test.ts', 'processes/**/*.test.ts', 'cli/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Process-level tests spawn real children and bind real ports: keep files apart on 2 cores.
    pool: 'forks',
    maxWorkers: 2,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
