import { describe, expect, it } from 'vitest';

import { dictionaryFor } from './build.js';
import { PRONUNCIATION_OVERRIDES } from './pronunciation-overrides.js';
import {
  DictionaryFormatError,
  formatDictionary,
  fromFlitePhones,
  modelPhones,
  parseDictionary,
} from './pronunciations.js';

/** A binary mdef as PocketSphinx writes one: magic, version, description, ten counts, phone names. */
function fakeMdef(phones: readonly string[]): Buffer {
  const description = Buffer.from('BEGIN FILE FORMAT DESCRIPTION\nEND FILE FORMAT DESCRIPTION\n\0\0\0');
  const header = Buffer.alloc(12);
  header.write('BMDF', 0, 'latin1');
  header.writeInt32LE(1, 4);
  header.writeInt32LE(description.length, 8);
  const counts = Buffer.alloc(40);
  counts.writeInt32LE(phones.length, 0);
  return Buffer.concat([
    header,
    description,
    counts,
    Buffer.from(`${phones.join('\0')}\0`, 'latin1'),
    Buffer.alloc(16),
  ]);
}

const PHONES = ['SIL', 'AA', 'AE', 'AH', 'D', 'EH', 'ER', 'G', 'IH', 'JH', 'K', 'M', 'N', 'S', 'T', 'Y', 'UH', 'IY'];

describe('pronunciation dictionaries', () => {
  it('parses CMUdict entries with alternates and writes them back the same way', () => {
    const text = 'knee N IY\nmeniscus M AH N IH S K AH S\nmeniscus(2) M EH N IH S K AH S\n';
    const dictionary = parseDictionary(text);
    expect(dictionary.get('meniscus')).toEqual([
      ['M', 'AH', 'N', 'IH', 'S', 'K', 'AH', 'S'],
      ['M', 'EH', 'N', 'IH', 'S', 'K', 'AH', 'S'],
    ]);
    expect(formatDictionary(dictionary)).toBe(text);
    expect(() => parseDictionary('knee\n')).toThrow(DictionaryFormatError);
  });

  it("maps flite's phones onto the acoustic model's (no stress, no pauses, no schwa)", () => {
    expect(fromFlitePhones('pau m eh1 n ih s k ax s pau \n')).toEqual(['M', 'EH', 'N', 'IH', 'S', 'K', 'AH', 'S']);
    expect(fromFlitePhones('pau b ah1 t axr pau')).toEqual(['B', 'AH', 'T', 'ER']);
  });

  it('reads the phone names of a binary model definition', () => {
    expect(modelPhones(fakeMdef(['+NSN+', 'AA', 'AE', 'ZH']))).toEqual(new Set(['+NSN+', 'AA', 'AE', 'ZH']));
    expect(() => modelPhones(Buffer.from('0 n_base\n'))).toThrow(DictionaryFormatError);
  });

  it('takes CMUdict first, then a hand-checked pronunciation, then flite', () => {
    const stock = parseDictionary('the DH AH\nthe(2) DH IY\n');
    const asked: string[] = [];
    const { dictionary, added } = dictionaryFor(
      ['<s>', '</s>', 'the', 'digoxin', 'metformin'],
      stock,
      new Set([...PHONES, 'DH', 'F', 'AO', 'R', 'AA']),
      (word) => {
        asked.push(word);
        return ['M', 'EH', 'T', 'F', 'AO', 'R', 'M', 'IH', 'N'];
      },
    );
    expect(dictionary.get('the')).toEqual([
      ['DH', 'AH'],
      ['DH', 'IY'],
    ]);
    expect(dictionary.get('digoxin')).toEqual(PRONUNCIATION_OVERRIDES['digoxin']?.map((text) => text.split(' ')));
    expect(asked).toEqual(['metformin']);
    expect(added).toEqual(['digoxin', 'metformin']);
    expect(dictionary.has('<s>')).toBe(false);
  });

  it('refuses a pronunciation with a phone the acoustic model lacks', () => {
    expect(() => dictionaryFor(['zzz'], new Map(), new Set(PHONES), () => ['Z', 'Z'])).toThrow(/"zzz"/);
  });

  it('writes every hand-checked pronunciation in the CMU phone set', () => {
    const cmuPhones = new Set(
      'AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH'.split(' '),
    );
    for (const [word, pronunciations] of Object.entries(PRONUNCIATION_OVERRIDES)) {
      expect(word).toMatch(/^[a-z']+$/);
      for (const pronunciation of pronunciations) {
        expect(pronunciation.split(' ').filter((phone) => !cmuPhones.has(phone))).toEqual([]);
      }
    }
  });
});
