/**
 * Finds the phrases of a lexicon in cleaned, lower-case text: longest phrase first, no overlaps,
 * on word boundaries. A phrase ending in `*` matches any ending of its last word.
 */

export interface Mention<T> {
  entry: T;
  /** Character offsets in the searched text. */
  start: number;
  end: number;
  /** The words as said. */
  said: string;
}

interface CompiledPhrase<T> {
  entry: T;
  pattern: RegExp;
  length: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function phrasePattern(phrase: string): RegExp {
  const open = phrase.endsWith('*');
  const words = (open ? phrase.slice(0, -1) : phrase).split(' ').map(escape);
  const body = words.join('[\\s-]+') + (open ? "[\\w'-]*" : '');
  return new RegExp(`(?<![\\w-])${body}(?![\\w-])`, 'g');
}

export class PhraseMatcher<T> {
  private readonly phrases: CompiledPhrase<T>[];

  constructor(entries: readonly T[], phrasesOf: (entry: T) => readonly string[]) {
    this.phrases = entries
      .flatMap((entry) =>
        phrasesOf(entry).map((phrase) => ({ entry, pattern: phrasePattern(phrase), length: phrase.length })),
      )
      .sort((a, b) => b.length - a.length);
  }

  /** Every mention in `text`, in text order. */
  find(text: string): Mention<T>[] {
    const taken: Mention<T>[] = [];
    for (const { entry, pattern } of this.phrases) {
      pattern.lastIndex = 0;
      for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
        const start = match.index;
        const end = start + match[0].length;
        if (taken.some((mention) => start < mention.end && end > mention.start)) continue;
        taken.push({ entry, start, end, said: match[0] });
      }
    }
    return taken.sort((a, b) => a.start - b.start);
  }
}
