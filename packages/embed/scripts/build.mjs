// Builds the package: an ES module (dist/index.js) with type declarations, its CommonJS twin
// (dist/cjs/index.js, for bundlers and test runners that `require`), and a minified script-tag
// bundle (dist/chartwright-embed.min.js) that defines `window.Chartwright.mountWidget`.
// Both must be free of zod and of any other runtime code from @chartwright/protocol: the helper
// takes only types from it. `--if-stale` skips the build when dist is newer than every input.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

import { writeCommonJsDeclarations } from '../../../scripts/commonjs-declarations.mjs';
import { runBuildScript } from '../../../scripts/staged-build.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Fails the build when an output carries bytes of a module other than the helper's own sources. */
function assertOwnCodeOnly(metafile) {
  const foreign = Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([input, { bytesInOutput }]) => bytesInOutput > 0 && !input.startsWith('src/'))
      .map(([input]) => input),
  );
  if (foreign.length > 0) throw new Error(`the embed bundles must hold only src/, not ${foreign.join(', ')}`);
}

async function buildInto(out) {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', out], {
    cwd: packageDir,
    stdio: 'inherit',
  });
  const common = {
    absWorkingDir: packageDir,
    entryPoints: ['src/index.ts'],
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  };
  writeCommonJsDeclarations(out, join(out, 'cjs'));
  const results = await Promise.all([
    build({ ...common, format: 'esm', sourcemap: true, outfile: join(out, 'index.js') }),
    build({ ...common, format: 'cjs', sourcemap: true, outfile: join(out, 'cjs', 'index.js') }),
    build({
      ...common,
      format: 'iife',
      globalName: 'Chartwright',
      minify: true,
      sourcemap: true,
      outfile: join(out, 'chartwright-embed.min.js'),
    }),
  ]);
  for (const result of results) assertOwnCodeOnly(result.metafile);
}

await runBuildScript(import.meta.url, '@chartwright/embed', {
  dir: packageDir,
  inputs: ['src', 'scripts', 'package.json', 'tsconfig.json'].map((path) => join(packageDir, path)),
  buildInto,
});
