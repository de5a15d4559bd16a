/**
 * The data sets beside the repository (../shared/data, read-only; see their ATTRIBUTION files), or
 * wherever CHARTWRIGHT_DATA_DIR points for a checkout that is not beside them. The tools and their
 * build (../tools-dist) sit at the same depth, so one relative URL finds the default.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DATA_DIR =
  process.env['CHARTWRIGHT_DATA_DIR'] ?? fileURLToPath(new URL('../../../../../shared/data/', import.meta.url));

const dataFile = (path: string): string => join(DATA_DIR, path);

/** ACI-Bench train split: what models are built from. */
export const ACI_BENCH_TRAIN = dataFile('aci-bench/train.jsonl');
/** ACI-Bench valid split: what models and engines are measured on, never built from. */
export const ACI_BENCH_VALID = dataFile('aci-bench/valid.jsonl');

/**
 * Real recorded speech with reference transcripts (its ATTRIBUTION.md): `refs.tsv` and `wav/`.
 * A development set: tune on it, never ship or copy it.
 */
export const REAL_SPEECH_DIR = dataFile('real-speech');

/**
 * The data sets a tool's test needs and this checkout lacks. The data sit beside the repository,
 * not in it, so a checkout elsewhere (or a machine without them) skips those tests, saying why;
 * everything else the tests check needs no data set.
 */
export function missingDatasets(files: readonly string[] = [ACI_BENCH_TRAIN, ACI_BENCH_VALID]): string[] {
  return files.filter((file) => !existsSync(file));
}

/** A suffix for the name of a test group that `missing` makes skip: what it lacks. */
export const skipReason = (missing: readonly string[]): string =>
  missing.length === 0 ? '' : ` (skipped: no ${missing.join(', ')}; set CHARTWRIGHT_DATA_DIR)`;
