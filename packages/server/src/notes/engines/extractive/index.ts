import type { NoteGenerator } from '../../generator.js';

import { extractiveNote } from './note.js';

/**
 * The embedded default engine: offline, deterministic, no model. It selects what was said that
 * belongs in a note, rewrites it in note style and places it under the template's headings; every
 * sentence it writes cites the turns (or context fields) it comes from.
 */
export const extractiveGenerator: NoteGenerator = {
  engine: { name: 'extractive', version: '1.1.0' },
  generate(input, options) {
    // The work is synchronous and fast; an aborted signal still rejects, like any engine's would.
    return new Promise((resolve) => {
      options?.signal?.throwIfAborted();
      resolve(extractiveNote(input));
    });
  },
};
