import type { SetContextMessage, WIDGET_ENCOUNTER_LIMITS } from '@chartwright/protocol';

/**
 * The longest SET_CONTEXT text a note request takes. Typed as the protocol's literal, so a change
 * there fails the type check here; the value itself is not imported, as its module would bring
 * every encounter API schema into the bundle.
 */
export const EXTRA_CONTEXT_MAX_LENGTH: (typeof WIDGET_ENCOUNTER_LIMITS)['extraContextMaxLength'] = 20_000;

export type ExtraContextResult = { ok: true; context: string } | { ok: false; entry: string };

/**
 * The SET_CONTEXT free text after a message: `append` adds a line (nothing for an empty one),
 * `overwrite` replaces it (with '' clearing it). Refused when the result would be longer than a
 * note request accepts, so the EMR learns it then and not when the clinician generates the note.
 */
export function applySetContext(
  current: string,
  message: Pick<SetContextMessage, 'context' | 'mode'>,
): ExtraContextResult {
  let context: string;
  if (message.mode === 'overwrite') context = message.context;
  else if (message.context === '') context = current;
  else context = current === '' ? message.context : `${current}\n${message.context}`;
  const limit = EXTRA_CONTEXT_MAX_LENGTH;
  if (context.length > limit) {
    return {
      ok: false,
      entry: `context: the free-text context would be ${context.length} characters long, at most ${limit} are kept`,
    };
  }
  return { ok: true, context };
}
