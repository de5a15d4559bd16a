import type { NoteGenerator } from '../../generator.js';

import { extractFacts } from '../../facts/sheet.js';
import { writeNote } from '../../writer/index.js';

/**
 * The offline engine that writes from the visit's facts (preview, `NOTES_ENGINE=facts`): it reads
 * the clinical facts of the visit with their evidence — symptoms and pertinent negatives,
 * medicines, allergies, findings, results, the clinician's assessment and plan — and writes the
 * note from them in the chart's third person. It becomes the default once it keeps everything the
 * extractive engine keeps (see docs/notes-quality.md).
 */
export const factsGenerator: NoteGenerator = {
  engine: { name: 'facts', version: '0.1.0' },
  generate(input, options) {
    return new Promise((resolve) => {
      options?.signal?.throwIfAborted();
      const sheet = extractFacts(input);
      resolve({ sections: writeNote(sheet, input.template), facts: sheet.facts });
    });
  },
};
