/**
 * `GET /healthz` at a steady interval from a thread of its own, as a monitor outside the service
 * would. The runner's own event loop is busy driving the streams it measures; timed there, a probe
 * would report the runner's delays as the service's.
 */
import { Worker } from 'node:worker_threads';

export interface HealthProbeResult {
  p99Ms: number;
  probes: number;
  problems: string[];
}

export interface HealthProbe {
  /** Stops probing and reports what it saw. */
  stop(): Promise<HealthProbeResult>;
}

export function startHealthProbe(url: string, intervalMs: number): HealthProbe {
  const worker = new Worker(new URL('./health-probe-worker.js', import.meta.url), { workerData: { url, intervalMs } });
  const failed = new Promise<never>((_resolve, reject) => {
    worker.once('error', reject);
  });
  failed.catch(() => undefined);
  return {
    async stop() {
      const result = new Promise<HealthProbeResult>((resolve) => {
        worker.once('message', (message: HealthProbeResult) => resolve(message));
      });
      worker.postMessage('stop');
      const reported = await Promise.race([result, failed]);
      await worker.terminate();
      return reported;
    },
  };
}
