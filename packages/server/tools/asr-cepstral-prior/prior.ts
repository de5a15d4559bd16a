/**
 * The cepstral prior from per-recording means: each group of recordings (a source and what it
 * holds: LibriVox read sentences, the set's Harvard sentences, card names, isolated digits) weighs
 * alike, so the 24 digit files of three speakers on one 8 kHz recorder do not make the prior theirs.
 */
import {
  CEPSTRUM_LENGTH,
  type CepstralPriorFile,
} from '@chartwright/server/internal/asr/pocketsphinx/cepstral-prior.js';

export interface RecordingMean {
  /** Recordings of one group are averaged first (e.g. `librivox/read sentences`). */
  group: string;
  mean: readonly number[];
}

export function average(vectors: readonly (readonly number[])[]): number[] {
  if (vectors.length === 0) throw new RangeError('no vectors to average');
  return Array.from({ length: CEPSTRUM_LENGTH }, (_, index) => {
    const total = vectors.reduce((sum, vector) => sum + (vector[index] ?? Number.NaN), 0);
    return total / vectors.length;
  });
}

export function cepstralPrior(means: readonly RecordingMean[]): { mean: number[]; groups: Record<string, number> } {
  const groups = new Map<string, (readonly number[])[]>();
  for (const { group, mean } of means) {
    if (mean.length !== CEPSTRUM_LENGTH) throw new RangeError(`${group}: a mean of ${mean.length} values`);
    groups.set(group, [...(groups.get(group) ?? []), mean]);
  }
  const sorted = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    mean: average(sorted.map(([, vectors]) => average(vectors))),
    groups: Object.fromEntries(sorted.map(([group, vectors]) => [group, vectors.length])),
  };
}

/** Two decimals: the library computes in single precision, and the prior is a starting point. */
export function formatCepstralPrior(prior: { mean: readonly number[]; groups: Record<string, number> }): string {
  const file: CepstralPriorFile & { recordings: Record<string, number> } = {
    about:
      'Where a new PocketSphinx stream starts its cepstral mean: the mean of real recordings of read speech, commands and digits (npm run build:asr-cepstral-prior).',
    recordings: prior.groups,
    mean: prior.mean.map((value) => Math.round(value * 100) / 100),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}
