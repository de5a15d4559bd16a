// Builds the published package: type declarations (tsc), Node ESM and CJS bundles, and the browser
// ESM bundle (plain and minified) with no Node built-ins, no `ws` and no zod in it.
// `--if-stale` skips the build when dist is newer than every input (scripts/setup.mjs uses it).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

import { writeCommonJsDeclarations } from '../../../scripts/commonjs-declarations.mjs';
import { runBuildScript } from '../../../scripts/staged-build.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Inputs whose change calls for a rebuild: the sources (not tests), this script, package.json and the protocol build. */

// The realtime client loads `ws` only where there is no global WebSocket, which browsers always have.
const wsForBrowsers = {
  name: 'ws-for-browsers',
  setup(builder) {
    builder.onResolve({ filter: /^ws$/ }, () => ({ path: 'ws', namespace: 'browser-stub' }));
    builder.onLoad({ filter: /.*/, namespace: 'browser-stub' }, () => ({
      loader: 'js',
      contents:
        "export class WebSocket { constructor() { throw new Error('The ws package is for Node.js; in a browser the global WebSocket is used.'); } }",
    }));
  },
};

// verifyWebhook loads node:crypto only where there is no global Web Crypto (Node 18), which browsers always have.
const nodeCryptoForBrowsers = {
  name: 'node-crypto-for-browsers',
  setup(builder) {
    builder.onResolve({ filter: /^node:crypto$/ }, () => ({ path: 'node:crypto', namespace: 'node-crypto-stub' }));
    builder.onLoad({ filter: /.*/, namespace: 'node-crypto-stub' }, () => ({
      loader: 'js',
      contents: 'export const webcrypto = globalThis.crypto;',
    }));
  },
};

/**
 * Fails the build if the browser bundle carries a module it must not: tree shaking has to have
 * dropped zod (the protocol's schemas) and `ws` entirely, which only the bytes in the output show.
 */
function assertBrowserInputs(metafile) {
  const forbidden = Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([input, { bytesInOutput }]) => bytesInOutput > 0 && /(^|\/)node_modules\/(zod|ws)\/|^node:/.test(input))
      .map(([input]) => input),
  );
  if (forbidden.length > 0) {
    throw new Error(`the browser bundle must not contain ${forbidden.join(', ')}`);
  }
}

async function buildInto(out) {
  // Declarations once; the CJS copy is read as CommonJS thanks to its package.json.
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', join(out, 'esm')],
    { cwd: packageDir, stdio: 'inherit' },
  );
  writeCommonJsDeclarations(join(out, 'esm'), join(out, 'cjs'));

  const common = {
    absWorkingDir: packageDir,
    entryPoints: ['src/index.ts'],
    bundle: true,
    target: 'es2022',
    sourcemap: true,
    legalComments: 'none',
    // Error classes are told apart by `name` in logs; minifying must not rename them.
    keepNames: true,
    logLevel: 'warning',
    metafile: true,
  };
  const node = { ...common, platform: 'node', external: ['ws'] };
  const browser = { ...common, platform: 'browser', format: 'esm', plugins: [wsForBrowsers, nodeCryptoForBrowsers] };
  const results = await Promise.all([
    build({ ...node, format: 'esm', outfile: join(out, 'esm', 'index.js') }),
    build({ ...node, format: 'cjs', outfile: join(out, 'cjs', 'index.js') }),
    build({ ...browser, outfile: join(out, 'browser', 'index.js') }),
    build({ ...browser, minify: true, outfile: join(out, 'browser', 'chartwright.min.js') }),
  ]);
  for (const result of results.slice(2)) assertBrowserInputs(result.metafile);
}

await runBuildScript(import.meta.url, '@chartwright/client', {
  dir: packageDir,
  inputs: [
    join(packageDir, 'src'),
    join(packageDir, 'scripts'),
    join(packageDir, 'package.json'),
    join(packageDir, 'tsconfig.json'),
    join(packageDir, '..', 'protocol', 'dist'),
  ],
  buildInto,
});
