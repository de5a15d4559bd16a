/**
 * What the recognizer tells operators (docs/operations.md, Metrics), per decoding worker: audio
 * waiting to be decoded, and the audio decoded and CPU spent, whose rates' ratio is the real-time
 * factor the bench reports. Read from the engine at each scrape; an engine that decodes elsewhere
 * (an OpenAI-compatible server) reports none of them.
 */
import type { Metrics, ReadAtScrape } from '../metrics/metrics.js';
import type { Recognizer, RecognizerWorkerLoad } from './recognizer.js';

export function registerRecognizerMetrics(metrics: Metrics, recognizer: Recognizer): void {
  const perWorker =
    (value: (load: RecognizerWorkerLoad) => number): ReadAtScrape<'worker'> =>
    (record) => {
      recognizer.load?.().forEach((load, worker) => record(value(load), { worker: String(worker) }));
    };
  metrics.gauge({
    name: 'recognizer_streams',
    help: 'Streams open on a recognizer worker.',
    labelNames: ['worker'],
    read: perWorker((load) => load.streams),
  });
  metrics.gauge({
    name: 'recognizer_backlog_seconds',
    help: 'Audio written to a recognizer worker’s streams and not decoded yet, in seconds.',
    labelNames: ['worker'],
    read: perWorker((load) => load.backlogSeconds),
  });
  metrics.counter({
    name: 'recognizer_audio_seconds_total',
    help: 'Audio a recognizer worker decoded, in seconds.',
    labelNames: ['worker'],
    read: perWorker((load) => load.decodedSeconds),
  });
  metrics.counter({
    name: 'recognizer_cpu_seconds_total',
    help: 'CPU time a recognizer worker process used; per second of recognizer_audio_seconds_total, the real-time factor.',
    labelNames: ['worker'],
    read: perWorker((load) => load.cpuSeconds),
  });
}
