import { AppError } from '../errors.js';

/** An edit made on a revision that is no longer the current one. */
export function revisionConflict(): AppError {
  return new AppError(
    'revision_conflict',
    'It changed since the revision these edits were made on; reload it and edit again.',
  );
}

/** Refuses an edit made on another revision than `current`, when the edit names the one it was made on. */
export function checkRevision(edited: number | undefined, current: number): void {
  if (edited !== undefined && edited !== current) throw revisionConflict();
}

/**
 * Applies edits keyed like the parts they change (a note's sections, a form's fields): parts left
 * out stay as they are, and a key that names no part is refused with every such key in the details.
 */
export function applyKeyedEdits<Part extends { key: string }>(
  parts: readonly Part[],
  edits: Readonly<Record<string, string>>,
  naming: { field: string; part: string; whole: string },
  apply: (part: Part, text: string) => Part,
): Part[] {
  const keys = parts.map((part) => part.key);
  const unknown = Object.keys(edits).filter((key) => !keys.includes(key));
  if (unknown.length > 0) {
    throw AppError.invalidBody(
      unknown.map((key) => ({
        path: `${naming.field}.${key}`,
        message: `is not a ${naming.part} of this ${naming.whole}; its ${naming.field} are ${keys.join(', ')}`,
      })),
    );
  }
  return parts.map((part) => {
    const text = edits[part.key];
    return text === undefined ? part : apply(part, text.trim());
  });
}
