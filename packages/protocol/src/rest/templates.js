import { z } from 'zod';
import { componentRegistry } from './registry.js';
export const templateSectionSchema = z
  .object({
    key: z.string().describe('Stable machine key of the section, e.g. `subjective`.'),
    label: z.string().describe('Heading shown in the note, e.g. `Subjective`.'),
    description: z.string().describe('What belongs in this section.'),
  })
  .register(componentRegistry, { id: 'TemplateSection' });
export const templateSchema = z
  .object({
    id: z.string().describe('The `template_id` to pass to POST /api/v1/notes.'),
    name: z.string(),
    description: z.string(),
    version: z.int().positive().describe('Bumped whenever the sections or their guidance change.'),
    sections: z.array(templateSectionSchema).describe('In the order they appear in the note.'),
  })
  .register(componentRegistry, { id: 'Template' });
export const templateListSchema = z
  .array(templateSchema)
  .register(componentRegistry, { id: 'TemplateList', description: 'All templates available to the key.' });
//# sourceMappingURL=templates.js.map
