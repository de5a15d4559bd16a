/**
 * Which code may import which, as one ESLint rule (`boundaries/imports`). Imports are judged by the
 * file they reach, not by how the path is spelled: relative paths are resolved, and the package
 * names that reach into a package (`@chartwright/server/internal/…`, `@chartwright/server/tools/…`,
 * `@chartwright/testing/…`) are mapped to their folders.
 */
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEST_FILE = /\.test\.tsx?$|\.bench\.ts$|\/test-support\//;

/** `from` and `to` match repository-relative paths; `tests` says whether test files are bound too. */
export const BOUNDARIES = [
  {
    from: /^packages\/server\/src\//,
    to: /^packages\/server\/tools\//,
    tests: false,
    message: 'the service never imports the dev-time tools (packages/server/tools)',
  },
  {
    from: /^packages\/(?!testing\/)[^/]+\/src\//,
    to: /^packages\/testing\//,
    tests: false,
    message: 'runtime code never imports test support (@chartwright/testing)',
  },
  {
    from: /^packages\/server\/src\/http\//,
    to: /^packages\/server\/src\/store\//,
    tests: true,
    message: 'http/ is plumbing shared by every area: it reaches data through services, never through store/',
  },
  {
    from: /^packages\/server\/src\/partners\//,
    to: /^packages\/server\/src\/encounters\//,
    tests: true,
    message: 'encounters build on partners (a widget session opens them), never the other way round',
  },
  {
    from: /^packages\/server\/src\/asr\//,
    to: /^packages\/server\/src\/notes\//,
    tests: true,
    message: 'the recognizer does not depend on the notes engine (shared text code lives in src/text)',
  },
  {
    from: /^packages\/server\/src\/notes\//,
    to: /^packages\/server\/src\/asr\//,
    tests: true,
    message: 'the notes engine does not depend on the recognizer (shared text code lives in src/text)',
  },
];

/** The package folder a repository-relative path belongs to (`packages/server`), or null. */
function packageOf(path) {
  return /^(packages|examples)\/[^/]+/.exec(path)?.[0] ?? null;
}

const PACKAGE_PATHS = [
  ['@chartwright/server/internal/', 'packages/server/src/'],
  ['@chartwright/server/tools/', 'packages/server/tools/'],
  ['@chartwright/testing/', 'packages/testing/src/'],
];

/** The repository-relative path an import reaches, or null for other packages' public entries. */
function targetOf(specifier, file) {
  if (specifier.startsWith('.')) return relative(ROOT, resolve(dirname(file), specifier));
  for (const [name, folder] of PACKAGE_PATHS) {
    if (specifier.startsWith(name)) return folder + specifier.slice(name.length);
  }
  return null;
}

/** Why `file` may not import `specifier`, or null. */
export function violation(file, specifier) {
  const from = relative(ROOT, file);
  const to = targetOf(specifier, file);
  if (to === null) return null;
  const fromPackage = packageOf(from);
  const toPackage = packageOf(to);
  if (specifier.startsWith('.') && toPackage !== null && fromPackage !== toPackage) {
    return `another package is imported by its name (@chartwright/…), never by a path into ${toPackage}`;
  }
  const test = TEST_FILE.test(from);
  const broken = BOUNDARIES.find((rule) => rule.from.test(from) && rule.to.test(to) && (rule.tests || !test));
  return broken?.message ?? null;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps imports inside the architecture’s boundaries (docs/architecture.md).' },
    schema: [],
  },
  create(context) {
    const check = (node, source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const message = violation(context.filename, source.value);
      if (message !== null) context.report({ node, message: `${source.value}: ${message}` });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export const importBoundaries = { rules: { imports: rule } };
