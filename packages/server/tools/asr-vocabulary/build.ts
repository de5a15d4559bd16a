/**
 * Builds the clinical vocabulary: a trigram language model of clinical conversation interpolated
 * with the stock en-us model, and a pronunciation dictionary covering every word it can output.
 * Dev-time only (`npm run build:asr-vocabulary`); the service loads the result from
 * packages/server/models/clinical/. Needs Debian's pocketsphinx-en-us, sphinxbase-utils
 * (`sphinx_lm_convert`) and flite (`t2p`).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { clinicalFiles } from '@chartwright/server/internal/asr/vocabularies.js';
import { parseConversation } from '@chartwright/server/internal/text/parse-conversation.js';

import { spokenSentences, spokenWords } from '../speech/spoken-form.js';
import { writeArpa } from './arpa.js';
import { LOG_ZERO, ngramCount, SENTENCE_END, SENTENCE_START, type BackoffModel } from './backoff-model.js';
import { interpolate, limitVocabulary, prune } from './combine.js';
import { withFilledPauses } from './filled-pauses.js';
import { estimateKneserNey } from './kneser-ney.js';
import { PRONUNCIATION_OVERRIDES } from './pronunciation-overrides.js';
import {
  flitePronunciation,
  formatDictionary,
  modelPhones,
  parseDictionary,
  type Dictionary,
} from './pronunciations.js';
import { readSphinxTrie } from './sphinx-trie.js';

export interface BuildOptions {
  /** ACI-Bench train split (JSON Lines with `dialogue` and `note`). Never the valid split. */
  trainPath: string;
  /** The stock model directory (en-us/, en-us.lm.bin, cmudict-en-us.dict). */
  stockDirectory: string;
  outputDirectory: string;
  /** Also learn from the train notes (written clinical text), not only the dialogues. */
  includeNotes: boolean;
  /** Weight of the clinical model in the interpolation; 1 = the clinical model alone. */
  clinicalWeight: number;
  /** Stock words kept, most probable first (the clinical words are always kept); 0 = all. */
  stockWords: number;
  /** Relative-entropy pruning threshold; 0 = no pruning. */
  pruneThreshold: number;
  /** Share of the gaps between training words given a filled pause (filled-pauses.ts); 0 = none. */
  fillerRate: number;
  log: (line: string) => void;
}

export interface BuildSummary {
  sentences: number;
  trainingWords: number;
  clinicalNgrams: number[];
  ngrams: number[];
  words: number;
  /** Words CMUdict lacks, given a pronunciation here. */
  addedPronunciations: number;
}

interface TrainRecord {
  dialogue: string;
  note?: string;
}

function readTrain(path: string): TrainRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const record = JSON.parse(line) as Partial<TrainRecord>;
      if (typeof record.dialogue !== 'string') throw new Error(`${path}:${index + 1}: no "dialogue"`);
      return record as TrainRecord;
    });
}

/** Every sentence of the train split in spoken form: dialogue turns, and the notes if asked. */
export function trainingSentences(records: readonly TrainRecord[], includeNotes: boolean): string[][] {
  const sentences: string[][] = [];
  for (const record of records) {
    for (const turn of parseConversation(record.dialogue, { asTyped: true }).turns) {
      for (const sentence of turn.sentences) {
        const words = spokenWords(sentence.text);
        if (words.length > 0) sentences.push(words);
      }
    }
    if (includeNotes && typeof record.note === 'string') sentences.push(...spokenSentences(record.note));
  }
  return sentences;
}

/** The most probable `count` words of a model, by unigram probability. */
function topWords(model: BackoffModel, count: number): Set<string> {
  const unigrams = model.tables[0];
  if (unigrams === undefined) return new Set();
  const order = unigrams.keys.map((key, row) => ({
    word: model.words[key] ?? '',
    logProb: unigrams.logProb[row] ?? LOG_ZERO,
  }));
  order.sort((a, b) => b.logProb - a.logProb);
  return new Set(order.slice(0, count).map((entry) => entry.word));
}

/** Pronunciations for every word of the model: CMUdict's, a checked override, or flite's. */
export function dictionaryFor(
  words: Iterable<string>,
  stock: Dictionary,
  phones: ReadonlySet<string>,
  pronounce: (word: string) => string[] = flitePronunciation,
): { dictionary: Dictionary; added: string[] } {
  const dictionary: Dictionary = new Map();
  const added: string[] = [];
  for (const word of words) {
    if (word === SENTENCE_START || word === SENTENCE_END) continue;
    const known = stock.get(word);
    if (known !== undefined) {
      dictionary.set(word, known);
      continue;
    }
    const override = PRONUNCIATION_OVERRIDES[word];
    const pronunciations = override === undefined ? [pronounce(word)] : override.map((text) => text.split(' '));
    for (const pronunciation of pronunciations) {
      const unknown = pronunciation.filter((phone) => !phones.has(phone));
      if (pronunciation.length === 0 || unknown.length > 0) {
        throw new Error(`no usable pronunciation for "${word}" (${pronunciation.join(' ')})`);
      }
    }
    dictionary.set(word, pronunciations);
    added.push(word);
  }
  return { dictionary, added };
}

/** Two-space JSON with arrays of numbers on one line, as Prettier formats it. */
function manifestJson(value: object): string {
  const json = JSON.stringify(value, null, 2).replace(
    /\[\s+([-\d.e,\s]+?)\s+\]/g,
    (_, items: string) => `[${items.split(/,\s*/).join(', ')}]`,
  );
  return `${json}\n`;
}

export function buildClinicalVocabulary(options: BuildOptions): BuildSummary {
  const { log } = options;
  const sentences = withFilledPauses(
    trainingSentences(readTrain(options.trainPath), options.includeNotes),
    options.fillerRate,
  );
  const trainingWords = sentences.reduce((n, sentence) => n + sentence.length, 0);
  log(`training text: ${sentences.length} sentences, ${trainingWords} words`);
  const clinical = estimateKneserNey(sentences);
  const clinicalNgrams = ngramCount(clinical);
  log(`clinical trigram model: ${clinicalNgrams.join(' / ')} n-grams`);

  let model = clinical;
  if (options.clinicalWeight < 1) {
    let stock = readSphinxTrie(readFileSync(join(options.stockDirectory, 'en-us.lm.bin')));
    log(`stock model: ${ngramCount(stock).join(' / ')} n-grams`);
    if (options.stockWords > 0) {
      const keep = topWords(stock, options.stockWords);
      for (const word of clinical.words) keep.add(word);
      stock = limitVocabulary(stock, keep);
      log(`stock model limited to ${stock.words.length} words: ${ngramCount(stock).join(' / ')} n-grams`);
    }
    model = interpolate(clinical, stock, options.clinicalWeight);
    log(`interpolated (clinical weight ${options.clinicalWeight}): ${ngramCount(model).join(' / ')} n-grams`);
  }
  if (options.pruneThreshold > 0) {
    const removed = prune(model, options.pruneThreshold);
    log(`pruned at ${options.pruneThreshold}: removed ${removed.join(' / ')}, kept ${ngramCount(model).join(' / ')}`);
  }

  const stockDictionary = parseDictionary(readFileSync(join(options.stockDirectory, 'cmudict-en-us.dict'), 'utf8'));
  const phones = modelPhones(readFileSync(join(options.stockDirectory, 'en-us', 'mdef')));
  const { dictionary, added } = dictionaryFor(model.words, stockDictionary, phones);
  log(`dictionary: ${dictionary.size} words, ${added.length} pronounced by flite or by hand`);

  const scratch = mkdtempSync(join(tmpdir(), 'cw-vocabulary-'));
  try {
    const arpa = join(scratch, 'clinical.arpa');
    writeFileSync(arpa, writeArpa(model));
    const files = clinicalFiles(options.outputDirectory);
    mkdirSync(options.outputDirectory, { recursive: true });
    execFileSync('sphinx_lm_convert', ['-i', arpa, '-o', files.lm], { stdio: 'ignore' });
    writeFileSync(files.dict, formatDictionary(dictionary));
    writeFileSync(files.additions, formatDictionary(new Map(added.map((word) => [word, dictionary.get(word) ?? []]))));
    writeFileSync(
      files.manifest,
      manifestJson({
        source: 'ACI-Bench train split (n-gram statistics only)',
        sourceSha256: createHash('sha256').update(readFileSync(options.trainPath)).digest('hex'),
        includeNotes: options.includeNotes,
        clinicalWeight: options.clinicalWeight,
        stockWords: options.stockWords,
        pruneThreshold: options.pruneThreshold,
        fillerRate: options.fillerRate,
        trainingSentences: sentences.length,
        trainingWords,
        clinicalNgrams,
        ngrams: ngramCount(model),
        words: dictionary.size,
        addedPronunciations: added.length,
      }),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return {
    sentences: sentences.length,
    trainingWords,
    clinicalNgrams,
    ngrams: ngramCount(model),
    words: dictionary.size,
    addedPronunciations: added.length,
  };
}
