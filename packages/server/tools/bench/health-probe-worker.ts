/** The health probe's thread (health-probe.ts): probes until told to stop, then posts its figures. */
import { createHistogram, performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

import type { HealthProbeResult } from './health-probe.js';

const { url, intervalMs } = workerData as { url: string; intervalMs: number };
const latencies = createHistogram({ lowest: 1, highest: 60_000_000, figures: 3 });
const problems: string[] = [];
let stopped = false;

parentPort?.once('message', () => {
  stopped = true;
});

async function probe(): Promise<void> {
  while (!stopped) {
    const began = performance.now();
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status !== 200) problems.push(`/healthz answered ${response.status}`);
    } catch (error) {
      problems.push(`/healthz failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    latencies.record(Math.max(1, Math.round((performance.now() - began) * 1000)));
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const result: HealthProbeResult = { p99Ms: latencies.percentile(99) / 1000, probes: latencies.count, problems };
  parentPort?.postMessage(result);
}

void probe();
