import { z } from 'zod';
import { WIDGET_LIMITS } from './limits.js';
const SECTION_KEY = /^[a-zA-Z][a-zA-Z0-9_]*$/;
function keyOf(section) {
  return typeof section === 'object' && section !== null && 'key' in section && typeof section.key === 'string'
    ? section.key
    : undefined;
}
export const noteSectionSchema = z.object({
  key: z
    .string()
    // An empty key would also fail the pattern; "must not be empty" is the clearer single message. The
    // abort also postpones the duplicate-key check below until the empty key is fixed.
    .min(1, { abort: true })
    .max(WIDGET_LIMITS.sectionKeyMaxLength)
    .regex(SECTION_KEY, { error: 'must start with a letter and contain only letters, digits and underscore' })
    .describe('Returned as the key in PUSH_NOTE.sections.'),
  label: z
    .string()
    .trim()
    .min(1)
    .max(WIDGET_LIMITS.sectionLabelMaxLength)
    .describe('Heading used for note generation and template resolution.'),
});
/**
 * The ordered sections of a structured note: 1 to 20 of them, keys unique. The widget's noteConfig
 * and the REST API share this schema so the two can never disagree on what a valid section list is.
 */
export const noteSectionsSchema = z
  .array(noteSectionSchema)
  .min(WIDGET_LIMITS.noteSectionsMin)
  .max(WIDGET_LIMITS.noteSectionsMax)
  .superRefine(
    (sections, ctx) => {
      // Keys become the keys of PUSH_NOTE.sections, so a duplicate would silently lose a section.
      const firstIndex = new Map();
      sections.forEach((section, index) => {
        const key = keyOf(section);
        if (key === undefined) return;
        const earlier = firstIndex.get(key);
        if (earlier === undefined) firstIndex.set(key, index);
        else
          ctx.addIssue({
            code: 'custom',
            input: key,
            path: [index, 'key'],
            message: `duplicates the key of the section at index ${earlier}`,
          });
      });
    },
    // Also run when another section is broken, so problems are reported in one go; the items may then
    // be malformed, hence keyOf.
    { when: (payload) => Array.isArray(payload.value) },
  );
/** PATIENT_CONTEXT.noteConfig: the shape of the structured note output. */
export const widgetNoteConfigSchema = z.object({
  sections: noteSectionsSchema,
});
//# sourceMappingURL=note-config.js.map
