// A CommonJS copy of a package's type declarations, for the `require` condition of its exports:
// the same .d.ts files in a folder whose package.json says CommonJS, so TypeScript reads them as
// the declarations of a CommonJS module. Plain Node, no dependencies.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @chartwright/protocol ships ESM-only types. A CommonJS declaration may import types from it only
 * with `resolution-mode: 'import'` (TypeScript 5.3+), so the copy says so.
 */
function markEsmOnlyTypeImports(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      markEsmOnlyTypeImports(path);
    } else if (entry.name.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8');
      const marked = text.replace(
        /^(import|export) (?:type )?\{([^}]*)\} from '(@chartwright\/protocol)';$/gm,
        (_statement, keyword, names, specifier) =>
          `${keyword} type {${names.replace(/\btype /g, '')}} from '${specifier}' with { 'resolution-mode': 'import' };`,
      );
      if (marked !== text) writeFileSync(path, marked);
    }
  }
}

/** Copies the declarations under `esm` into `cjs` (which may lie inside it), marked for CommonJS. */
export function writeCommonJsDeclarations(esm, cjs) {
  const copy = (from, to) => {
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      const source = join(from, entry.name);
      if (entry.isDirectory() && source !== cjs) copy(source, join(to, entry.name));
      else if (entry.name.endsWith('.d.ts')) {
        mkdirSync(to, { recursive: true });
        copyFileSync(source, join(to, entry.name));
      }
    }
  };
  copy(esm, cjs);
  writeFileSync(join(cjs, 'package.json'), '{ "type": "commonjs" }\n');
  markEsmOnlyTypeImports(cjs);
}
