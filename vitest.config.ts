import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

const source = (path: string): string => fileURLToPath(new URL(`./${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against sources; the built packages are what the service and CLI run.
    alias: [
      { find: /^@chartwright\/protocol$/, replacement: source('packages/protocol/src/index.ts') },
      { find: /^@chartwright\/client$/, replacement: source('packages/client/src/index.ts') },
      { find: /^@chartwright\/embed$/, replacement: source('packages/embed/src/index.ts') },
      // The server's internals and dev tools (speech fixtures), for the test support that drives them, and the test support itself.
      { find: /^@chartwright\/server\/internal\/(.*)$/, replacement: source('packages/server/src/$1') },
      { find: /^@chartwright\/server\/tools\/(.*)$/, replacement: source('packages/server/tools/$1') },
      { find: /^@chartwright\/testing\/(.*)$/, replacement: source('packages/testing/src/$1') },
    ],
  },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/server/tools/**/*.test.ts',
      'examples/*/src/**/*.test.ts',
      'eslint/**/*.test.ts',
    ],
    reporters: ['default', './scripts/summary-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
