/** The table `npm run eval:asr` prints. */
import { table } from '../shared/table.js';
import type { Voices } from './dialogue-audio.js';

export interface VocabularyResult {
  name: 'stock' | 'clinical';
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

export interface EvalReport {
  dataset: string;
  dialogues: string[];
  voices: Voices;
  clinicalDirectory: string;
  /** Whether both decoded with the flat-lexicon second pass (ASR_SECOND_PASS). */
  secondPass: boolean;
  machine: string[];
  date: string;
  vocabularies: VocabularyResult[];
}

export function wordErrorRateOf(result: Pick<VocabularyResult, 'errors' | 'referenceWords'>): number {
  return result.referenceWords === 0 ? 0 : result.errors / result.referenceWords;
}

export function realTimeFactor(result: Pick<VocabularyResult, 'cpuSeconds' | 'audioSeconds'>): number {
  return result.audioSeconds === 0 ? 0 : result.cpuSeconds / result.audioSeconds;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

export function formatReport(report: EvalReport): string {
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
    `ASR word error rate: ${report.dataset}, ${report.dialogues.length} dialogues (${report.dialogues.join(', ')}), ${report.date}`,
    `Speech: flite, clinician "${report.voices.clinician}", patient and others "${report.voices.patient}"; ` +
      'reference and speech in spoken form.',
    `Clinical vocabulary: ${report.clinicalDirectory}`,
    `Second pass (ASR_SECOND_PASS): ${report.secondPass ? 'on' : 'off'}`,
    ...report.machine,
    '',
    ...table(['Vocabulary', 'Words', 'Errors', 'WER', 'Audio min', 'CPU s', 'RTF', 'Load ms'], rows),
    ...comparison,
    '',
  ].join('\n');
}
