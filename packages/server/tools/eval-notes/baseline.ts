/**
 * The "copy the whole dialogue" baseline ACI-Bench reports (about 0.33 ROUGE-1 on its test sets):
 * the note is the transcript itself. Any engine worth running must beat it by a wide margin.
 */
import type { GeneratedNote, NoteGenerator } from '@chartwright/server/internal/notes/generator.js';
import type { Conversation } from '@chartwright/server/internal/text/conversation.js';

/** A speaker tag at the start of a line, as ACI-Bench writes them: `[doctor]`, `[patient]`, `[patient_guest]`. */
const LEADING_TAG = /^\s*\[[A-Za-z][\w -]{0,40}\]\s*/;

/**
 * The baseline note: the dialogue with the leading speaker tag of each line removed, one turn a
 * line, blank lines dropped. Works on the raw text, so it does not depend on the parser.
 */
export function copyDialogue(dialogue: string): string {
  return dialogue
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(LEADING_TAG, '').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

/**
 * The same baseline as a note generator: every turn, one sentence each, in the template's first
 * section, citing its own turn. Useful as a stand-in engine in tests and as a sanity check of the
 * evaluation pipeline (its faithfulness must be 1).
 */
export const copyDialogueGenerator: NoteGenerator = {
  engine: { name: 'copy-dialogue', version: '1' },
  generate({ template, conversation }): Promise<GeneratedNote> {
    return Promise.resolve({
      sections: template.sections.map((section, index) => ({
        key: section.key,
        label: section.label,
        sentences: index === 0 ? turnsAsSentences(conversation) : [],
      })),
    });
  },
};

function turnsAsSentences(conversation: Conversation): GeneratedNote['sections'][number]['sentences'] {
  return conversation.turns
    .map((turn) => ({ text: turn.text.replace(/\s+/g, ' ').trim(), evidence: { turns: [turn.index], context: [] } }))
    .filter((sentence) => sentence.text.length > 0);
}
