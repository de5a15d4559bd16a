/**
 * The data sets beside the repository (../shared/data, read-only; see their ATTRIBUTION files). The
 * tools and their build (../tools-dist) sit at the same depth, so one relative URL finds them.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dataFile = (path: string): string =>
  fileURLToPath(new URL(`../../../../../shared/data/${path}`, import.meta.url));

/** ACI-Bench train split: what models are built from. */
export const ACI_BENCH_TRAIN = dataFile('aci-bench/train.jsonl');
/** ACI-Bench valid split: what models and engines are measured on, never built from. */
export const ACI_BENCH_VALID = dataFile('aci-bench/valid.jsonl');

/**
 * The data sets these tools and their tests need and this machine lacks. Locally those tests are
 * skipped; in CI (which runs beside the data) a missing file fails the run instead.
 */
export function missingDatasets(files: readonly string[] = [ACI_BENCH_TRAIN, ACI_BENCH_VALID]): string[] {
  const missing = files.filter((file) => !existsSync(file));
  if (missing.length > 0 && process.env['CI'] !== undefined && process.env['CI'] !== '') {
    throw new Error(`data-set tests may not be skipped in CI; missing: ${missing.join(', ')}`);
  }
  return missing;
}
