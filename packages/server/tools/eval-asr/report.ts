/** The tables `npm run eval:asr` prints, and the arithmetic behind their corpus-level figures. */
import { table } from '../shared/table.js';
import { SUBSETS, type Subset } from '../speech/real-speech.js';
import type { Voices } from './dialogue-audio.js';

export type VocabularyName = 'stock' | 'clinical';

export interface VocabularyResult {
  name: VocabularyName;
  referenceWords: number;
  /** Word edits (substitutions, deletions, insertions) against the reference, summed over dialogues. */
  errors: number;
  audioSeconds: number;
  /** CPU of the vocabulary's worker process while decoding (decoders loaded per stream included). */
  cpuSeconds: number;
  /** Wall time for the worker to start and load its first decoder. */
  loadMs: number;
  dialogues: { id: string; referenceWords: number; errors: number }[];
}

export interface FliteReport {
  dataset: string;
  dialogues: string[];
  voices: Voices;
  vocabularies: VocabularyResult[];
}

export interface FileScore {
  id: string;
  subset: Subset;
  source: string;
  referenceWords: number;
  errors: number;
  audioSeconds: number;
}

export interface SubsetScore {
  subset: Subset;
  files: number;
  referenceWords: number;
  errors: number;
  audioSeconds: number;
  /** CPU of the vocabulary's worker while it decoded this subset. */
  cpuSeconds: number;
}

export interface RealVocabularyResult {
  name: VocabularyName;
  subsets: SubsetScore[];
  files: FileScore[];
}

export interface RealReport {
  directory: string;
  /** Recordings per source (librivox, cards, real-speech). */
  sources: Record<string, number>;
  /** What the pool lacks, e.g. the development set. */
  notes: string[];
  vocabularies: RealVocabularyResult[];
}

export interface EvalReport {
  clinicalDirectory: string;
  /** Whether both decoded with the flat-lexicon second pass (ASR_SECOND_PASS). */
  secondPass: boolean;
  /** PocketSphinx arguments appended to both vocabularies' decoder arguments (`--decoder-args`). */
  decoderArgs: string[];
  machine: string[];
  date: string;
  /** Null when `--sets` left the set out. */
  flite: FliteReport | null;
  real: RealReport | null;
}

export function wordErrorRateOf(result: Pick<VocabularyResult, 'errors' | 'referenceWords'>): number {
  return result.referenceWords === 0 ? 0 : result.errors / result.referenceWords;
}

export function realTimeFactor(result: Pick<VocabularyResult, 'cpuSeconds' | 'audioSeconds'>): number {
  return result.audioSeconds === 0 ? 0 : result.cpuSeconds / result.audioSeconds;
}

/**
 * Corpus-level scores per subset: errors and words summed over the subset's files, so a long file
 * counts for its words rather than as one rate among many. Subsets without files are left out.
 */
export function poolBySubset(files: readonly FileScore[], cpuSeconds: Partial<Record<Subset, number>>): SubsetScore[] {
  return SUBSETS.flatMap((subset) => {
    const members = files.filter((file) => file.subset === subset);
    if (members.length === 0) return [];
    const sum = (key: 'referenceWords' | 'errors' | 'audioSeconds'): number =>
      members.reduce((total, file) => total + file[key], 0);
    return [
      {
        subset,
        files: members.length,
        referenceWords: sum('referenceWords'),
        errors: sum('errors'),
        audioSeconds: sum('audioSeconds'),
        cpuSeconds: cpuSeconds[subset] ?? 0,
      },
    ];
  });
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

function formatFlite(report: FliteReport): string[] {
  const rows = report.vocabularies.map((result) => [
    result.name,
    integer.format(result.referenceWords),
    integer.format(result.errors),
    percent(wordErrorRateOf(result)),
    (result.audioSeconds / 60).toFixed(1),
    result.cpuSeconds.toFixed(1),
    realTimeFactor(result).toFixed(3),
    integer.format(result.loadMs),
  ]);
  const stock = report.vocabularies.find((result) => result.name === 'stock');
  const clinical = report.vocabularies.find((result) => result.name === 'clinical');
  const comparison =
    stock === undefined || clinical === undefined || stock.cpuSeconds === 0
      ? []
      : [
          '',
          `Clinical vs stock: WER ${percent(wordErrorRateOf(stock))} → ${percent(wordErrorRateOf(clinical))}, ` +
            `CPU × ${(clinical.cpuSeconds / stock.cpuSeconds).toFixed(2)} (same run, same audio).`,
        ];
  return [
    `Flite speech: ${report.dataset}, ${report.dialogues.length} dialogues (${report.dialogues.join(', ')})`,
    `Voices: clinician "${report.voices.clinician}", patient and others "${report.voices.patient}"; ` +
      'reference and speech in spoken form.',
    '',
    ...table(['Vocabulary', 'Words', 'Errors', 'WER', 'Audio min', 'CPU s', 'RTF', 'Load ms'], rows),
    ...comparison,
  ];
}

/** Which vocabulary has fewer errors on real read sentences: the figure a default must win. */
export function readSentencesVerdict(report: RealReport): string {
  const scores = report.vocabularies.flatMap(({ name, subsets }) =>
    subsets.filter((score) => score.subset === 'read sentences').map((score) => ({ name, score })),
  );
  const [first, second] = scores;
  if (first === undefined || second === undefined) return 'No real read sentences were scored.';
  const figures = `${first.name} ${percent(wordErrorRateOf(first.score))}, ${second.name} ${percent(wordErrorRateOf(second.score))}`;
  if (first.score.errors === second.score.errors) return `On real read sentences neither vocabulary wins (${figures}).`;
  const winner = first.score.errors < second.score.errors ? first : second;
  return `On real read sentences ${winner.name} wins (${figures}).`;
}

function formatReal(report: RealReport): string[] {
  const score = (name: VocabularyName, subset: Subset): SubsetScore | undefined =>
    report.vocabularies.find((result) => result.name === name)?.subsets.find((entry) => entry.subset === subset);
  const rows = SUBSETS.flatMap((subset) => {
    const stock = score('stock', subset);
    const clinical = score('clinical', subset);
    const any = stock ?? clinical;
    if (any === undefined) return [];
    const wer = (entry: SubsetScore | undefined): string =>
      entry === undefined ? '-' : percent(wordErrorRateOf(entry));
    const cpu = (entry: SubsetScore | undefined): string => (entry === undefined ? '-' : entry.cpuSeconds.toFixed(1));
    return [
      [
        subset,
        integer.format(any.files),
        integer.format(any.referenceWords),
        any.audioSeconds.toFixed(1),
        wer(stock),
        wer(clinical),
        cpu(stock),
        cpu(clinical),
      ],
    ];
  });
  const sources = Object.entries(report.sources)
    .map(([source, count]) => `${source} ${count}`)
    .join(', ');
  return [
    `Real speech: ${sources} recordings (${report.directory} and Debian's pocketsphinx-testdata); ` +
      'corpus-level WER (all errors over all reference words of a subset).',
    ...report.notes.map((note) => `Note: ${note}`),
    '',
    ...table(
      ['Subset', 'Files', 'Words', 'Audio s', 'Stock WER', 'Clinical WER', 'Stock CPU s', 'Clinical CPU s'],
      rows,
    ),
    '',
    readSentencesVerdict(report),
  ];
}

export function formatReport(report: EvalReport): string {
  const sections = [
    report.real === null ? [] : formatReal(report.real),
    report.flite === null ? [] : formatFlite(report.flite),
  ]
    .filter((lines) => lines.length > 0)
    .flatMap((lines) => ['', ...lines]);
  return [
    `ASR word error rate, stock vs clinical vocabulary, ${report.date}`,
    `Clinical vocabulary: ${report.clinicalDirectory}`,
    `Second pass (ASR_SECOND_PASS): ${report.secondPass ? 'on' : 'off'}`,
    `Extra decoder arguments: ${report.decoderArgs.length === 0 ? 'none' : report.decoderArgs.join(' ')}`,
    ...report.machine,
    ...sections,
    '',
  ].join('\n');
}
