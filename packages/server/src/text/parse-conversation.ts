import type { Conversation, ConversationSentence, ConversationTurn, Speaker } from './conversation.js';
import { readableSentences } from './display-text.js';
import { splitSentences } from './sentences.js';
import { namesUsedAsPrefixesRepeatedly, speakerRole, splitLabels } from './speaker-labels.js';
import { stripTimestamps } from './timestamps.js';
import { rejoinedTranscriptTokens } from './transcript-tokens.js';

/**
 * Turns a transcript, in whatever common shape it arrives, into speaker turns split into sentences.
 *
 * Shapes understood: `[doctor] …` tags (several on one line too), `Doctor:` / `Dr. Smith:` / `Pt:`
 * prefixes, a speaker label alone on its line followed by its text, timestamps before or after the
 * label (`[00:01:23]`, `00:01:23`, `(12:03)`), and unlabeled prose (one `unknown` speaker, a turn per
 * paragraph). Anything else degrades to unlabeled prose: this function never throws, because a
 * transcript the parser does not understand must still produce a (plainer) note.
 */
export interface ParseOptions {
  /**
   * Read the words as typed (default false): no sentence ends placed in paragraphs that have none
   * (see `readableSentences`), and a transcript's scoring tokens left split ("do n't", "twelve .
   * five"; see `rejoinedTranscriptTokens`). The builders that count typed text, the recognizer's
   * language model and the punctuation model, read it so.
   */
  asTyped?: boolean;
}

export function parseConversation(text: string, options: ParseOptions = {}): Conversation {
  const asTyped = options.asTyped ?? false;
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => stripTimestamps(line.replace(/[\t\f\v\u00a0]+/g, ' ').trim()));
  const repeatedNames = namesUsedAsPrefixesRepeatedly(lines);
  const drafts: { label: string | null; lines: string[] }[] = [];
  let current: { label: string | null; lines: string[] } | null = null;

  for (const line of lines) {
    if (line === '') {
      // A blank line ends a paragraph: unlabeled prose turns are paragraphs; labeled turns go on.
      if (current !== null && current.label === null) current = null;
      else current?.lines.push('');
      continue;
    }
    const pieces = splitLabels(line, repeatedNames);
    for (const piece of pieces) {
      if (piece.label !== null) {
        current = { label: piece.label, lines: [] };
        drafts.push(current);
      } else if (current === null) {
        current = { label: null, lines: [] };
        drafts.push(current);
      }
      if (piece.text !== '') current.lines.push(piece.text);
    }
  }

  const turns: ConversationTurn[] = [];
  for (const draft of drafts) {
    const paragraphs = paragraphsOf(draft.lines).map((paragraph) =>
      asTyped ? paragraph : rejoinedTranscriptTokens(paragraph),
    );
    if (paragraphs.length === 0) continue;
    const label = draft.label;
    const speaker: Speaker = label === null ? 'unknown' : speakerRole(label);
    const sentences: ConversationSentence[] = [];
    const texts: string[] = [];
    for (const paragraph of paragraphs) {
      const read: Omit<ConversationSentence, 'index'>[] = asTyped
        ? splitSentences(paragraph).map((sentence) => ({ text: sentence }))
        : readableSentences(paragraph);
      for (const sentence of read) sentences.push({ index: sentences.length, ...sentence });
      // A paragraph given its ends reads as its sentences (its display text, not derived twice).
      texts.push(
        read.some((sentence) => sentence.markInferred) ? read.map((sentence) => sentence.text).join(' ') : paragraph,
      );
    }
    const text = texts.join('\n\n');
    turns.push({ index: turns.length, speaker, speakerLabel: label, text, sentences });
  }
  return { turns };
}

/** Lines of one turn → its paragraphs, whitespace collapsed (wrapped lines are one paragraph). */
function paragraphsOf(lines: readonly string[]): string[] {
  const paragraphs: string[] = [];
  let buffer: string[] = [];
  const flush = () => {
    const paragraph = buffer.join(' ').replace(/\s+/g, ' ').trim();
    if (paragraph !== '') paragraphs.push(paragraph);
    buffer = [];
  };
  for (const line of lines) {
    if (line === '') flush();
    else buffer.push(line);
  }
  flush();
  return paragraphs;
}
