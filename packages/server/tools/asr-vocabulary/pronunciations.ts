/**
 * Pronunciation dictionaries in the CMUdict format PocketSphinx reads (`word PH PH …`, alternates as
 * `word(2) …`), and pronunciations for words CMUdict lacks from flite's `t2p` (its lexicon and
 * letter-to-sound rules), mapped onto the acoustic model's phone set.
 */
import { execFileSync } from 'node:child_process';

export type Dictionary = Map<string, string[][]>;

export class DictionaryFormatError extends Error {
  override readonly name = 'DictionaryFormatError';
}

export function parseDictionary(text: string): Dictionary {
  const dictionary: Dictionary = new Map();
  text.split('\n').forEach((line, index) => {
    const fields = line.trim().split(/\s+/);
    const [entry = '', ...phones] = fields;
    if (entry === '') return;
    if (phones.length === 0) throw new DictionaryFormatError(`line ${index + 1}: "${entry}" has no phones`);
    const word = entry.replace(/\(\d+\)$/, '');
    const pronunciations = dictionary.get(word) ?? [];
    pronunciations.push(phones);
    dictionary.set(word, pronunciations);
  });
  return dictionary;
}

/** Sorted by word, alternates numbered from (2) as CMUdict does. */
export function formatDictionary(dictionary: Dictionary): string {
  const lines: string[] = [];
  for (const word of [...dictionary.keys()].sort()) {
    (dictionary.get(word) ?? []).forEach((phones, index) => {
      lines.push(`${index === 0 ? word : `${word}(${index + 1})`} ${phones.join(' ')}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

/** flite's phones that the CMU acoustic model names differently (it has no schwa of its own). */
const FLITE_PHONES: Record<string, string[]> = { ax: ['AH'], axr: ['ER'] };

/** flite's output ("pau m eh1 n ih s k ax s pau") as model phones ("M EH N IH S K AH S"). */
export function fromFlitePhones(output: string): string[] {
  return output
    .trim()
    .split(/\s+/)
    .filter((phone) => phone !== '' && phone !== 'pau')
    .flatMap((phone) => {
      const bare = phone.replace(/\d$/, '');
      return FLITE_PHONES[bare] ?? [bare.toUpperCase()];
    });
}

/** How flite would say a word: its lexicon, else its letter-to-sound rules. Needs the `flite` package. */
export function flitePronunciation(word: string): string[] {
  return fromFlitePhones(execFileSync('t2p', [word], { encoding: 'utf8' }));
}

/**
 * The CI phones of a binary PocketSphinx model definition (`mdef`): a text description, then ten
 * int32 counts (the first is the number of CI phones), then the phone names, NUL-terminated.
 */
export function modelPhones(mdef: Buffer): Set<string> {
  if (mdef.toString('latin1', 0, 4) !== 'BMDF') throw new DictionaryFormatError('not a binary mdef file');
  const descriptionLength = mdef.readInt32LE(8);
  const countsAt = 12 + descriptionLength;
  const phoneCount = mdef.readInt32LE(countsAt);
  const names = mdef
    .toString('latin1', countsAt + 40)
    .split('\0')
    .slice(0, phoneCount);
  return new Set(names);
}
