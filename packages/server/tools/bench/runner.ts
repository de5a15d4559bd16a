/**
 * The shared runner: what a scenario is, what a measurement holds, and the HTTP load generator
 * (autocannon's programmatic API) that the HTTP scenarios share.
 */
import { createHistogram } from 'node:perf_hooks';

import autocannon from 'autocannon';

import type { Targets } from './ipc.js';

export interface LoadSettings {
  /** Concurrent keep-alive connections. */
  readonly connections: number;
  /** Requests in flight per connection; 1 means a client waits for each response. */
  readonly pipelining: number;
  /** Unrecorded load before each measurement: JIT, connection setup, SQLite page cache. */
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
}

export interface Measurement {
  /** Responses received in the measured period (any status). */
  readonly responses: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  /** Everything that makes the figures meaningless: wrong statuses, socket errors, timeouts. */
  readonly problems: readonly string[];
  /** A figure that does not fit the table's columns, printed under it (a recognizer's real-time factor). */
  readonly detail?: string;
}

export interface ScenarioContext {
  readonly targets: Targets;
  readonly settings: LoadSettings;
  /** One progress line for the person watching the run. */
  readonly progress: (line: string) => void;
}

export interface Scenario {
  readonly name: string;
  /**
   * The scenario this one is compared against. It must come earlier in the list, so every
   * ratio compares two measurements of the same run, and baselines are always measured first.
   */
  readonly baseline?: string;
  /** The share of the baseline's req/s this scenario must keep, e.g. 0.7. */
  readonly minRatio?: number;
  measure(context: ScenarioContext): Promise<Measurement>;
}

/** One HTTP request, repeated by every connection for the whole run. */
export interface HttpRequest {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly expectedStatus: number;
  /**
   * Checked once before the load, not on every response: comparing bodies in the load generator
   * would spend the CPU it needs to keep the server busy.
   */
  readonly expectedBody?: string;
}

export interface HttpScenarioSpec {
  readonly name: string;
  readonly baseline?: string;
  readonly minRatio?: number;
  readonly request: (targets: Targets) => HttpRequest;
}

/** Rounds an interleaved group's measured time is cut into. */
const ROUNDS = 5;

/**
 * HTTP scenarios measured in turns: each gets its warm-up, then the measured time is cut into
 * rounds, and every round measures each scenario in turn (the order reversed every other round).
 * A scenario and its baseline so see the same machine: on a shared machine, whose speed drifts by
 * tens of percent from one ten-second stretch to the next, back-to-back measurements compared the
 * drift as much as the routes.
 */
export function interleavedHttpScenarios(specs: readonly HttpScenarioSpec[]): Scenario[] {
  let measured: Promise<Map<string, Measurement>> | null = null;
  return specs.map((spec) => ({
    name: spec.name,
    ...(spec.baseline === undefined ? {} : { baseline: spec.baseline }),
    ...(spec.minRatio === undefined ? {} : { minRatio: spec.minRatio }),
    async measure(context) {
      measured ??= measureInTurns(specs, context);
      const measurement = (await measured).get(spec.name);
      if (measurement === undefined) throw new Error(`${spec.name} was not measured`);
      return measurement;
    },
  }));
}

async function measureInTurns(
  specs: readonly HttpScenarioSpec[],
  { targets, settings, progress }: ScenarioContext,
): Promise<Map<string, Measurement>> {
  const results = new Map<string, Measurement>();
  const running: { spec: HttpScenarioSpec; request: HttpRequest; tally: Tally }[] = [];
  for (const spec of specs) {
    const request = spec.request(targets);
    const preflightProblem = await preflight(request);
    if (preflightProblem === null) running.push({ spec, request, tally: newTally() });
    else results.set(spec.name, { ...measurementOf(newTally()), problems: [preflightProblem] });
  }
  if (settings.warmupSeconds > 0) {
    for (const { spec, request } of running) {
      progress(`${spec.name}: warming up ${settings.warmupSeconds} s`);
      await load(request, settings, settings.warmupSeconds, newTally());
    }
  }
  const roundSeconds = Math.max(1, Math.round(settings.durationSeconds / ROUNDS));
  progress(
    `${running.map(({ spec }) => spec.name).join(' | ')}: measuring ${ROUNDS} rounds of ${roundSeconds} s each, in turns`,
  );
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? running : [...running].reverse();
    for (const { request, tally } of order) await load(request, settings, roundSeconds, tally);
  }
  for (const { spec, tally } of running) results.set(spec.name, measurementOf(tally));
  return results;
}

/** A single request before the load, so a misconfigured scenario fails with a readable reason. */
async function preflight(request: HttpRequest): Promise<string | null> {
  try {
    const response = await fetch(request.url, {
      method: request.method ?? 'GET',
      ...(request.headers === undefined ? {} : { headers: request.headers }),
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    const body = await response.text();
    if (response.status !== request.expectedStatus) {
      return `preflight: expected status ${request.expectedStatus}, got ${response.status}: ${body.slice(0, 200)}`;
    }
    if (request.expectedBody !== undefined && body !== request.expectedBody) {
      return `preflight: the response body differs from the expected one (${body.length} vs ${request.expectedBody.length} bytes)`;
    }
    return null;
  } catch (error) {
    return `preflight: ${error instanceof Error ? error.message : String(error)}`;
  }
}

// Latencies are recorded in microseconds: autocannon's own histogram keeps whole milliseconds,
// too coarse for loopback responses that take well under one.
const MICROS_PER_MS = 1000;

/** What the rounds of one scenario add up to. */
interface Tally {
  latencies: ReturnType<typeof createHistogram>;
  responses: number;
  seconds: number;
  problems: string[];
}

const newTally = (): Tally => ({
  latencies: createHistogram({ lowest: 1, highest: 60_000_000, figures: 3 }),
  responses: 0,
  seconds: 0,
  problems: [],
});

function measurementOf(tally: Tally): Measurement {
  const { latencies, responses, seconds } = tally;
  const problems = [...tally.problems];
  if (responses === 0) problems.push('no responses at all');
  return {
    responses,
    seconds,
    requestsPerSecond: seconds > 0 ? responses / seconds : 0,
    p50Ms: responses === 0 ? 0 : latencies.percentile(50) / MICROS_PER_MS,
    p95Ms: responses === 0 ? 0 : latencies.percentile(95) / MICROS_PER_MS,
    p99Ms: responses === 0 ? 0 : latencies.percentile(99) / MICROS_PER_MS,
    problems,
  };
}

/** Drives the request for `seconds` and adds what it measured to `tally`. */
async function load(request: HttpRequest, settings: LoadSettings, seconds: number, tally: Tally): Promise<void> {
  const { latencies } = tally;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: request.url,
        connections: settings.connections,
        pipelining: settings.pipelining,
        duration: seconds,
        method: request.method ?? 'GET',
        ...(request.headers === undefined ? {} : { headers: { ...request.headers } }),
        ...(request.body === undefined ? {} : { body: request.body }),
      },
      (error: unknown, done: autocannon.Result) => {
        if (error === null || error === undefined) resolve(done);
        else reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
      },
    );
    instance.on('response', (_client, _statusCode, _bytes, responseTimeMs) => {
      latencies.record(Math.max(1, Math.round(responseTimeMs * MICROS_PER_MS)));
    });
  });

  const { problems } = tally;
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
    if (Number(status) !== request.expectedStatus) {
      problems.push(`${stats.count ?? 0} responses with status ${status} (expected ${request.expectedStatus})`);
    }
  }
  // autocannon counts a timeout as an error too; report the two apart.
  const socketErrors = result.errors - result.timeouts;
  if (socketErrors > 0) problems.push(`${socketErrors} connection errors`);
  if (result.timeouts > 0) problems.push(`${result.timeouts} timeouts`);
  tally.responses += result.requests.total;
  tally.seconds += result.duration;
}
