/**
 * Which code may not import which: each boundary names the files it binds (globs from the repository
 * root), the import specifiers those files may not use (regular expressions), and why.
 *
 * @typedef {{ files: string[], forbidden: string[], message: string }} ImportBoundary
 */

/** @type {ImportBoundary[]} */
export const IMPORT_BOUNDARIES = [
  {
    files: ['packages/server/src/http/**'],
    forbidden: ['^(\\.\\./)+store(/|$)', '^@chartwright/server/internal/store(/|$)'],
    message: 'http/ is plumbing shared by every area: it reaches data through services, never through store/.',
  },
  {
    files: ['packages/server/src/partners/**'],
    forbidden: ['^(\\.\\./)+encounters(/|$)', '^@chartwright/server/internal/encounters(/|$)'],
    message: 'Encounters build on partners (a widget session opens them), never the other way round.',
  },
];

/** @template T @param {T[]} items @returns {T[][]} every non-empty combination of the items */
function combinations(items) {
  return items.flatMap((item, index) => [
    [item],
    ...combinations(items.slice(index + 1)).map((rest) => [item, ...rest]),
  ]);
}

/** @param {string[][]} lists @returns {string[][]} one pick from each list, every way */
function picks(lists) {
  return lists.reduce((partial, list) => partial.flatMap((picked) => list.map((item) => [...picked, item])), [[]]);
}

/**
 * The boundaries as flat-config entries of `no-restricted-imports`. ESLint keeps only the last
 * options a file gets for a rule, so boundaries whose files overlap would drop each other's
 * patterns: there is one entry per combination of boundaries, matching the files all of them bind
 * (a nested `files` array matches when every glob in it does), with all of their patterns, and the
 * larger combinations come last.
 *
 * @param {ImportBoundary[]} boundaries
 * @returns {import('eslint').Linter.Config[]}
 */
export function importBoundaryConfigs(boundaries = IMPORT_BOUNDARIES) {
  return combinations(boundaries)
    .sort((a, b) => a.length - b.length)
    .map((combination) => ({
      name: `import-boundaries:${combination.map((boundary) => boundary.files.join('|')).join('+')}`,
      files: picks(combination.map((boundary) => boundary.files)),
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: combination.flatMap((boundary) =>
              boundary.forbidden.map((regex) => ({ regex, message: boundary.message })),
            ),
          },
        ],
      },
    }));
}
