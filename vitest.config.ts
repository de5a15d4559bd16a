import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Tests run against sources; the built packages are what the service and CLI run.
    alias: {
      '@chartwright/protocol': fileURLToPath(new URL('./packages/protocol/src/index.ts', import.meta.url)),
      '@chartwright/client': fileURLToPath(new URL('./packages/client/src/index.ts', import.meta.url)),
      '@chartwright/embed': fileURLToPath(new URL('./packages/embed/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/*/src/**/*.test.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
