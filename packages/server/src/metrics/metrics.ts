/**
 * What the service measures about itself, for Prometheus (`GET /metrics`, docs/operations.md).
 * One registry per app, so two apps in one process (tests, the bench) never count into each other.
 * A feature registers its own metrics where it lives, with the app's Metrics: a counter it
 * increments, or a gauge (or counter) read from it whenever the metrics are scraped.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Every metric of the service's own is named `chartwright_…`. */
const PREFIX = 'chartwright_';

export type Labels<Label extends string> = Readonly<Record<Label, string>>;

export interface MetricSpec<Label extends string> {
  /** Without the prefix, in Prometheus's style: `note_jobs_started_total`, `…_seconds`. */
  name: string;
  help: string;
  labelNames?: readonly Label[];
}

/**
 * Values taken when the metrics are scraped rather than counted as things happen: `record` each
 * (with its labels, for a labelled metric), at once or after a wait (a queue's depth in Redis).
 * What is not recorded in a scrape is not reported; nor is anything of a read that fails, which
 * leaves its metric empty rather than failing the scrape.
 */
export type ReadAtScrape<Label extends string> = (
  record: (value: number, labels?: Labels<Label>) => void,
) => void | Promise<void>;

/** prom-client's collect() for a metric whose values are read at each scrape. */
function collectFrom<Label extends string, Metric extends { reset(): void }>(
  read: ReadAtScrape<Label>,
  recordInto: (metric: Metric, value: number, labels: Labels<Label> | undefined) => void,
) {
  return async function collect(this: Metric): Promise<void> {
    this.reset();
    const values: [number, Labels<Label> | undefined][] = [];
    try {
      await read((value, labels) => values.push([value, labels]));
    } catch {
      return;
    }
    for (const [value, labels] of values) recordInto(this, value, labels);
  };
}

export class Metrics {
  readonly #registry = new Registry();
  #withProcessMetrics = false;

  /** A counter its feature increments, or (with `read`) a total read from it at each scrape. */
  counter<Label extends string = never>(spec: MetricSpec<Label> & { read?: ReadAtScrape<Label> }): Counter<Label> {
    const { read } = spec;
    const collect =
      read &&
      collectFrom<Label, Counter<Label>>(read, (counter, value, labels) =>
        labels === undefined ? counter.inc(value) : counter.inc(labels, value),
      );
    return new Counter<Label>({ ...this.#configuration(spec), ...(collect && { collect }) });
  }

  /** A gauge its feature sets, or (with `read`) a value read from it at each scrape. */
  gauge<Label extends string = never>(spec: MetricSpec<Label> & { read?: ReadAtScrape<Label> }): Gauge<Label> {
    const { read } = spec;
    const collect =
      read &&
      collectFrom<Label, Gauge<Label>>(read, (gauge, value, labels) =>
        labels === undefined ? gauge.set(value) : gauge.set(labels, value),
      );
    return new Gauge<Label>({ ...this.#configuration(spec), ...(collect && { collect }) });
  }

  histogram<Label extends string = never>(spec: MetricSpec<Label> & { buckets: readonly number[] }): Histogram<Label> {
    return new Histogram<Label>({ ...this.#configuration(spec), buckets: [...spec.buckets] });
  }

  /**
   * Adds what prom-client knows of the process (CPU, memory, event-loop lag, garbage collection,
   * handles), under the names every Node.js dashboard expects (`process_…`, `nodejs_…`). Only an
   * app whose metrics are served calls it: it starts an event-loop monitor and a GC observer.
   */
  includeProcessMetrics(): void {
    if (this.#withProcessMetrics) return;
    this.#withProcessMetrics = true;
    collectDefaultMetrics({ register: this.#registry });
  }

  /** Every metric, in the Prometheus text format. */
  render(): Promise<string> {
    return this.#registry.metrics();
  }

  get contentType(): string {
    return this.#registry.contentType;
  }

  #configuration<Label extends string>(spec: MetricSpec<Label>) {
    return {
      name: `${PREFIX}${spec.name}`,
      help: spec.help,
      labelNames: spec.labelNames ?? [],
      registers: [this.#registry],
    };
  }
}
