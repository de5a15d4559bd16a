/**
 * Real recorded speech with reference transcripts: the development set beside the repository
 * (REAL_SPEECH_DIR, see its ATTRIBUTION.md) pooled with the recordings Debian's
 * pocketsphinx-testdata ships with references. The recognizer's packages come with that one, so the
 * pool never lacks real speech where the recognizer runs; the development set is optional.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';
import { resampleLinear } from '@chartwright/server/internal/asr/resample.js';
import { parseWav } from '@chartwright/server/internal/asr/wav.js';

export const POCKETSPHINX_TESTDATA = '/usr/share/pocketsphinx/test/data';
export const TESTDATA_INSTALL = 'apt-get install -y pocketsphinx-testdata';

/**
 * How the recordings are pooled: read sentences (LibriVox and the set's `general`), short card
 * names spoken as commands (Debian's `cards`), and isolated digits (the set's `digits`).
 */
export const SUBSETS = ['read sentences', 'commands', 'digits'] as const;
export type Subset = (typeof SUBSETS)[number];

export interface Recording {
  id: string;
  subset: Subset;
  /** Where it comes from, for the report: `librivox`, `cards` or `real-speech`. */
  source: string;
  file: string;
  /** As written by the source; scored through scoredWords like any reference. */
  reference: string;
}

export interface RealSpeechSet {
  recordings: Recording[];
  /** What the pool lacks and why, for the report (the development set may be absent). */
  notes: string[];
}

/** The pool cannot be built or read: Debian's recordings are not installed, a reference file is malformed, a file is not mono. */
export class RealSpeechError extends Error {}

/** The set's own subset names, and where each goes in the pool. */
const REFS_SUBSETS: Record<string, Subset> = { general: 'read sentences', digits: 'digits' };

/** `refs.tsv`: `id <TAB> subset <TAB> reference`, audio in `wav/<id>.wav`. */
export function parseRefs(text: string, directory: string): Recording[] {
  return text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return [];
    const [id, subsetName, reference, ...rest] = line.replace(/\r$/, '').split('\t');
    if (id === undefined || id === '' || reference === undefined || reference.trim() === '' || rest.length > 0) {
      throw new RealSpeechError(`refs.tsv line ${index + 1}: expected id <TAB> subset <TAB> reference`);
    }
    const subset = REFS_SUBSETS[subsetName ?? ''];
    if (subset === undefined) {
      throw new RealSpeechError(`refs.tsv line ${index + 1}: unknown subset "${subsetName ?? ''}" (general or digits)`);
    }
    return [{ id, subset, source: 'real-speech', file: join(directory, 'wav', `${id}.wav`), reference }];
  });
}

/** A Sphinx transcription: one `<s> words </s> (fileid)` line per recording, audio in `<fileid>.wav`. */
export function parseTranscription(text: string, directory: string, subset: Subset, source: string): Recording[] {
  return text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return [];
    const match = /^\s*(?:<s>)?(.*?)(?:<\/s>)?\s*\(([^()\s]+)\)\s*$/.exec(line);
    const [, reference = '', id = ''] = match ?? [];
    if (match === null || reference.trim() === '') {
      throw new RealSpeechError(`${source} transcription line ${index + 1}: expected <s> words </s> (fileid)`);
    }
    return [{ id, subset, source, file: join(directory, `${id}.wav`), reference: reference.trim() }];
  });
}

/**
 * The pooled recordings, ordered by subset. A missing development set is noted, not fatal; missing
 * Debian test data is (RealSpeechError, with the install command).
 */
export async function loadRealSpeech(
  realSpeechDirectory: string,
  testdataDirectory = POCKETSPHINX_TESTDATA,
): Promise<RealSpeechSet> {
  const librivox = join(testdataDirectory, 'librivox');
  const cards = join(testdataDirectory, 'cards');
  if (!existsSync(join(librivox, 'transcription')) || !existsSync(join(cards, 'cards.transcription'))) {
    throw new RealSpeechError(
      `no pocketsphinx test recordings in ${testdataDirectory}; install with: ${TESTDATA_INSTALL}`,
    );
  }
  const recordings = [
    ...parseTranscription(
      await readFile(join(librivox, 'transcription'), 'utf8'),
      librivox,
      'read sentences',
      'librivox',
    ),
    ...parseTranscription(await readFile(join(cards, 'cards.transcription'), 'utf8'), cards, 'commands', 'cards'),
  ];
  const notes: string[] = [];
  const refs = join(realSpeechDirectory, 'refs.tsv');
  if (existsSync(refs)) recordings.push(...parseRefs(await readFile(refs, 'utf8'), realSpeechDirectory));
  else notes.push(`no real-speech set at ${realSpeechDirectory}: Debian's pocketsphinx-testdata only, no digits`);
  return {
    recordings: SUBSETS.flatMap((subset) => recordings.filter((recording) => recording.subset === subset)),
    notes,
  };
}

/**
 * A recording as the recognizer takes it: 16 kHz mono. Files with more channels are refused, since
 * averaging a stereo interview would score a mix nobody recorded.
 */
export async function readRecording(file: string): Promise<Int16Array> {
  const wav = parseWav(await readFile(file));
  if (wav.channels !== 1)
    throw new RealSpeechError(`${file}: ${wav.channels} channels; only mono recordings are scored`);
  return wav.sampleRate === RECOGNIZER_SAMPLE_RATE
    ? wav.samples
    : resampleLinear(wav.samples, wav.sampleRate, RECOGNIZER_SAMPLE_RATE);
}
