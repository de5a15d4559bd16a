import type { NoteGenerator } from '../../generator.js';

import { extractFacts } from '../../facts/sheet.js';
import { writeNote } from '../../writer/index.js';

/**
 * The embedded default engine: offline, deterministic, no model. It reads the clinical facts of
 * the visit with their evidence — symptoms and pertinent negatives, medicines, allergies, history,
 * findings, results, the clinician's assessment and plan — and writes the note from them in the
 * chart's third person under the template's headings; every sentence cites the facts (and so the
 * turns or context fields) it states.
 */
export const extractiveGenerator: NoteGenerator = {
  engine: { name: 'extractive', version: '2.0.0' },
  generate(input, options) {
    // The work is synchronous and fast; an aborted signal still rejects, like any engine's would.
    return new Promise((resolve) => {
      options?.signal?.throwIfAborted();
      const sheet = extractFacts(input);
      resolve({ sections: writeNote(sheet, input.template, input.style ?? 'detailed'), facts: sheet.facts });
    });
  },
};
