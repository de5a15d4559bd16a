/** Sentence boundaries in transcripts, which are often lower case and full of abbreviations. */
/** Abbreviations after which a period never ends a sentence: titles and Latin connectives. */
const NEVER_FINAL = new Set([
  'dr',
  'mr',
  'mrs',
  'ms',
  'mx',
  'prof',
  'st',
  'sr',
  'jr',
  'e.g',
  'i.e',
  'vs',
  'cf',
  'approx',
  'fig',
  'no',
  'nos',
]);
/** Abbreviations that may end a sentence: split after them only when a capital letter follows. */
const MAYBE_FINAL = new Set([
  'etc',
  'a.m',
  'p.m',
  'b.i.d',
  't.i.d',
  'q.i.d',
  'q.d',
  'p.o',
  'p.r.n',
  'q.h.s',
  'h.s',
  'o.d',
  'o.s',
  'o.u',
  'inc',
  'ltd',
  'min',
  'hr',
  'hrs',
  'wk',
  'wks',
  'mo',
  'yr',
  'yrs',
  'mg',
  'ml',
  'mcg',
  'kg',
  'lb',
  'lbs',
  'oz',
]);

/**
 * Splits a paragraph into sentences. Two styles have to work: ASR transcripts such as ACI-Bench's,
 * lower-cased with punctuation set off by spaces ("i'm okay . how are you ?"), where a spaced
 * period always ends a sentence; and ordinary prose, where a period attached to a word ends one only
 * if it is not an abbreviation ("Dr.", "e.g.", "b.i.d.") or a decimal ("2.5 mg"), and the next word
 * starts like a sentence. Never returns an empty sentence; returns [] only for blank input.
 */
export function splitSentences(paragraph: string): string[] {
  const text = paragraph.replace(/\s+/g, ' ').trim();
  if (text === '') return [];
  const lowerCaseStyle = !/[A-Z]/.test(text);
  const sentences: string[] = [];
  let start = 0;
  const boundary = /([.?!…]+)(["'”’)\]]*)( +)/g;
  for (let match = boundary.exec(text); match !== null; match = boundary.exec(text)) {
    const punctuation = match[1] ?? '';
    const end = match.index + punctuation.length + (match[2] ?? '').length;
    const next = text.slice(match.index + match[0].length);
    if (!endsSentence(text.slice(start, match.index), punctuation, next, lowerCaseStyle)) continue;
    const sentence = text.slice(start, end).trim();
    if (sentence !== '') sentences.push(sentence);
    start = match.index + match[0].length;
  }
  const last = text.slice(start).trim();
  if (last !== '') sentences.push(last);
  // A lone punctuation "sentence" (". ." in ASR output) joins the one before it.
  const merged: string[] = [];
  for (const sentence of sentences) {
    const previous = merged.at(-1);
    if (!/[\p{L}\p{N}]/u.test(sentence) && previous !== undefined)
      merged[merged.length - 1] = `${previous} ${sentence}`;
    else merged.push(sentence);
  }
  return merged;
}

function endsSentence(before: string, punctuation: string, next: string, lowerCaseStyle: boolean): boolean {
  if (next === '') return false;
  if (punctuation !== '.') return true;
  // Spaced punctuation (ASR style): the period stands alone, so it is a full stop.
  if (before.endsWith(' ') || before === '') return true;
  const word = (/(\S+)$/.exec(before)?.[1] ?? '').replace(/^["'“‘(]+/, '').toLowerCase();
  const nextStartsSentence = /^["'“‘(]*[A-Z0-9]/.test(next);
  if (NEVER_FINAL.has(word)) return false;
  // An initial ("J. Smith") or a run of single letters with dots ("b.i.d.") is an abbreviation.
  if (/^[a-z]$/.test(word)) return false;
  if (MAYBE_FINAL.has(word) || /^(?:[a-z]\.)+[a-z]$/.test(word)) return /^["'“‘(]*[A-Z]/.test(next);
  return nextStartsSentence || lowerCaseStyle;
}
