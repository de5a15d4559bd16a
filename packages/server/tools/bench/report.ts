/** The bench's results table and the lines under it. */
import { cpus } from 'node:os';

import type { Measurement, Scenario } from './runner.js';

export interface ScenarioResult {
  readonly scenario: Scenario;
  readonly measurement: Measurement;
}

function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

/**
 * The share of CPU time left idle over a short sample. Both cores are needed by the run itself, so
 * anything else busy on the machine (a build, a test run) lowers the figures, often unevenly.
 */
export async function idleShare(sampleMs = 1000): Promise<number> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const after = cpuTimes();
  const total = after.total - before.total;
  return total > 0 ? (after.idle - before.idle) / total : 1;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const ms = (value: number): string => value.toFixed(2);
const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

/** A row's ratio against its baseline, or null for a baseline or when either side failed. */
export function ratioOf(result: ScenarioResult, all: readonly ScenarioResult[]): number | null {
  const { baseline } = result.scenario;
  if (baseline === undefined) return null;
  const base = all.find((candidate) => candidate.scenario.name === baseline);
  // A failed measurement on either side has no meaningful ratio.
  if (base === undefined || base.measurement.problems.length > 0 || result.measurement.problems.length > 0) return null;
  if (base.measurement.requestsPerSecond === 0) return null;
  return result.measurement.requestsPerSecond / base.measurement.requestsPerSecond;
}

function targetCell(result: ScenarioResult, ratio: number | null): string {
  const { minRatio } = result.scenario;
  if (minRatio === undefined) return '';
  if (ratio === null) return 'not measured';
  return ratio >= minRatio ? `met (>= ${percent(minRatio)})` : `below target (${percent(minRatio)})`;
}

export function resultsTable(results: readonly ScenarioResult[]): string {
  const header = ['Scenario', 'per s', 'p50 ms', 'p95 ms', 'p99 ms', 'vs baseline', 'Target'];
  const rows = results.map((result) => {
    const { measurement, scenario } = result;
    const ratio = ratioOf(result, results);
    const failed = measurement.problems.length > 0;
    return [
      scenario.name,
      failed ? 'FAILED' : integer.format(measurement.requestsPerSecond),
      failed ? '' : ms(measurement.p50Ms),
      failed ? '' : ms(measurement.p95Ms),
      failed ? '' : ms(measurement.p99Ms),
      scenario.baseline === undefined ? 'baseline' : ratio === null ? '' : percent(ratio),
      targetCell(result, ratio),
    ];
  });
  return formatTable(header, rows, [false, true, true, true, true, true, false]);
}

/** The scenarios' details, a line each, for under the table. */
export function detailLines(results: readonly ScenarioResult[]): string[] {
  return results.flatMap(({ scenario, measurement }) =>
    measurement.detail === undefined || measurement.problems.length > 0
      ? []
      : [`${scenario.name}: ${measurement.detail}`],
  );
}

/** Plain-text table: text columns left-aligned, numbers right-aligned. */
export function formatTable(
  header: readonly string[],
  rows: readonly string[][],
  alignRight: readonly boolean[],
): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return alignRight[column] === true ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}
