/**
 * Whether the embedded recognizer can take one more live stream without falling behind real time.
 *
 * A live stream brings a second of audio each second, so the workers carry as many streams as the
 * cores they run on divided by the CPU a second of audio costs them: the real-time factor, which
 * they measure as they decode (the same figures as the `recognizer_*` metrics). Past that, every
 * stream's finals come later and later, until one stream's backlog reaches its limit and it fails
 * with `recognizer_overloaded` in the middle of a visit, and then the next (docs/performance.md).
 * Refusing the new socket with `at_capacity` instead (retry shortly, or on another instance) keeps
 * the visits already open on time. Workers already behind real time take no new stream either.
 */
import { availableParallelism } from 'node:os';

import type { Recognizer, RecognizerWorkerLoad } from '../asr/recognizer.js';

/** How often the totals are sampled, at most; the factor is read over the samples of the window. */
const SAMPLE_EVERY_MS = 5_000;
const WINDOW_MS = 120_000;
/** Audio a new estimate of the factor needs: less is mostly a stream's decoder being made. */
const MIN_DECODED_SECONDS = 30;
/**
 * How far behind real time the least-behind worker may be (its streams' audio waiting, on average)
 * before no new stream is taken: a third of what one stream may have waiting (10 s) before it fails.
 * A worker that keeps up holds a few hundred milliseconds per stream, a second or two while it
 * decodes a first utterance again.
 */
export const BEHIND_SECONDS = 3;
/**
 * The factor a cold instance assumes until its workers have measured their own: the highest the
 * bench's two-core machines measured with read speech (0.13 to 0.40 from one machine to the next),
 * so the streams it admits fit the cores of the slowest at 80%. Without it, a burst of
 * sessions reaching a fresh instance first (a restart, a new instance behind the load balancer, the
 * resumes of an instance that died) was all admitted before anything was measured, more streams
 * than the cores carry, and they fell behind until they failed mid-visit. Under load the measured
 * figure replaces it within seconds (30 s of audio decoded); sockets refused meanwhile retry.
 */
export const UNMEASURED_REAL_TIME_FACTOR = 0.4;

export type HeadroomRefusal =
  | { reason: 'behind'; behindSeconds: number }
  | { reason: 'full'; streams: number; capacity: number; realTimeFactor: number };

/** The recognizer's totals at one moment: CPU its workers used and audio they decoded, summed. */
export interface RecognizerTotals {
  atMs: number;
  cpuSeconds: number;
  decodedSeconds: number;
}

/** The workers' real-time factor over the last two minutes of their totals (or the last known). */
export class RealTimeFactorWindow {
  readonly #samples: RecognizerTotals[] = [];
  #value: number | null = null;

  get value(): number | null {
    return this.#value;
  }

  observe(now: RecognizerTotals): void {
    // Until a worker has decoded something, its CPU is the model loading, not the cost of audio.
    if (now.decodedSeconds === 0) return;
    const last = this.#samples.at(-1);
    if (last === undefined || now.atMs - last.atMs >= SAMPLE_EVERY_MS) this.#samples.push(now);
    while (this.#samples.length > 1 && now.atMs - (this.#samples[0]?.atMs ?? now.atMs) > WINDOW_MS) {
      this.#samples.shift();
    }
    const first = this.#samples[0];
    if (first === undefined) return;
    const decoded = now.decodedSeconds - first.decodedSeconds;
    if (decoded >= MIN_DECODED_SECONDS) this.#value = (now.cpuSeconds - first.cpuSeconds) / decoded;
  }
}

export interface HeadroomLimits {
  /** Sockets open now: each is a stream, or about to open one. */
  openSessions: number;
  /** The share of the workers' cores that open streams may need, 0 to 1 (0: no check at all). */
  maxLoad: number;
  /** Cores the workers can run on at once. */
  cores: number;
}

/** Why the workers should take no new stream, or null when they have room for one. */
export function headroomRefusal(
  load: readonly RecognizerWorkerLoad[],
  realTimeFactor: number,
  limits: HeadroomLimits,
): HeadroomRefusal | null {
  if (load.length === 0 || limits.maxLoad === 0) return null;
  const behindSeconds = Math.min(...load.map((worker) => worker.backlogSeconds / Math.max(1, worker.streams)));
  if (behindSeconds >= BEHIND_SECONDS) return { reason: 'behind', behindSeconds };
  if (realTimeFactor <= 0) return null;
  const capacity = Math.floor((Math.min(load.length, limits.cores) * limits.maxLoad) / realTimeFactor);
  const streams = Math.max(limits.openSessions, sum(load.map((worker) => worker.streams))) + 1;
  return streams > capacity ? { reason: 'full', streams, capacity, realTimeFactor } : null;
}

/** The check as the realtime service makes it, on the recognizer it serves. */
export class RecognizerHeadroom {
  readonly #factor = new RealTimeFactorWindow();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly recognizer: Pick<Recognizer, 'load'>,
    private readonly maxLoad: number,
    private readonly cores = availableParallelism(),
  ) {}

  /**
   * Samples the workers' totals every few seconds from now on, so that the factor is known when
   * sockets arrive, however long since the last one.
   */
  start(): void {
    this.#timer ??= setInterval(() => this.#observe(), SAMPLE_EVERY_MS).unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Why one more socket should not be served, or null; an engine that decodes elsewhere always has room. */
  refusal(openSessions: number): HeadroomRefusal | null {
    const load = this.#observe();
    if (load === undefined) return null;
    const factor = this.#factor.value ?? UNMEASURED_REAL_TIME_FACTOR;
    return headroomRefusal(load, factor, { openSessions, maxLoad: this.maxLoad, cores: this.cores });
  }

  #observe(): RecognizerWorkerLoad[] | undefined {
    const load = this.recognizer.load?.();
    if (load === undefined) return undefined;
    this.#factor.observe({
      atMs: performance.now(),
      cpuSeconds: sum(load.map((worker) => worker.cpuSeconds)),
      decodedSeconds: sum(load.map((worker) => worker.decodedSeconds)),
    });
    return load;
  }
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
