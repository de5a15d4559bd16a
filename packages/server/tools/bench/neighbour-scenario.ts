/**
 * Isolation between tenants: one project's 16 realtime streams (real speech, as the realtime
 * levels stream it) while another project posts 15,000-word notes back to back, against the same
 * streams with the neighbour quiet, in the same run. Both runs also probe `GET /healthz` every
 * 20 ms and read the service process's event-loop delay. Targets (issue 16): end-of-speech → final
 * p95 within 25% of the quiet run, `/healthz` p99 under 20 ms, event-loop p99 under 20 ms while
 * notes are written.
 */
import { startHealthProbe } from './health-probe.js';
import { LOOP_DELAY_PATH, type LoopDelay } from './loop-delay-probe.js';
import { realtimeScenario } from './realtime-scenario.js';
import type { Measurement, Scenario, ScenarioContext } from './runner.js';
import { syntheticVisit } from './synthetic-visit.js';

const STREAMS = 16;
const NOTE_WORDS = 15_000;
const HEALTH_INTERVAL_MS = 20;
/** End-of-speech → final p95 with the neighbour busy may be at most this multiple of the quiet one. */
const MAX_P95_RATIO = 1.25;
const MAX_HEALTH_P99_MS = 20;
const MAX_LOOP_P99_MS = 20;

interface Probes {
  healthP99Ms: number;
  healthProblems: string[];
  loop: LoopDelay;
}

/** `GET /healthz` every HEALTH_INTERVAL_MS (from its own thread) and the event-loop delay, while `work` runs. */
async function probed<T>(context: ScenarioContext, work: () => Promise<T>): Promise<{ result: T; probes: Probes }> {
  const { apiOrigin, probeOrigin } = context.targets;
  await fetch(probeOrigin + LOOP_DELAY_PATH, { method: 'POST' });
  const health = startHealthProbe(`${apiOrigin}/healthz`, HEALTH_INTERVAL_MS);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await health.stop();
    throw error;
  }
  const probedHealth = await health.stop();
  const loop = (await (await fetch(probeOrigin + LOOP_DELAY_PATH)).json()) as LoopDelay;
  return { result, probes: { healthP99Ms: probedHealth.p99Ms, healthProblems: probedHealth.problems, loop } };
}

interface NoteLoad {
  written: number;
  refused: number;
  problems: string[];
  stop: () => Promise<void>;
}

/** The neighbour: one client posting the same long visit as soon as the last note came back. */
function postNotes(context: ScenarioContext): NoteLoad {
  const body = JSON.stringify({ template_id: 'history_and_physical', conversation_text: syntheticVisit(NOTE_WORDS) });
  const load: NoteLoad = { written: 0, refused: 0, problems: [], stop: () => Promise.resolve() };
  const stop = new AbortController();
  const loop = (async () => {
    while (!stop.signal.aborted) {
      const response = await fetch(`${context.targets.apiOrigin}/api/v1/notes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${context.targets.neighbourKey}`, 'content-type': 'application/json' },
        body,
      });
      await response.arrayBuffer();
      if (response.status === 201) load.written += 1;
      else if (response.status === 503) load.refused += 1;
      else load.problems.push(`POST /api/v1/notes answered ${response.status}`);
    }
  })();
  load.stop = async () => {
    stop.abort();
    await loop;
  };
  return load;
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

/**
 * The two runs: the quiet one first (the baseline row), then the one with the neighbour, whose
 * detail line holds the ratios against the quiet run and the verdicts.
 */
export function neighbourScenarios(): Scenario[] {
  const streams = realtimeScenario(STREAMS, 'staggered');
  let quiet: { measurement: Measurement; probes: Probes } | null = null;
  const quietName = `isolation: ${STREAMS} realtime streams, neighbour quiet`;

  const quietRun: Scenario = {
    name: quietName,
    async measure(context) {
      const { result, probes } = await probed(context, () => streams.measure(context));
      // A failed quiet run is no baseline: the busy run then reports no ratio.
      quiet =
        result.problems.length === 0 && probes.healthProblems.length === 0 ? { measurement: result, probes } : null;
      return {
        ...result,
        problems: [...result.problems, ...probes.healthProblems],
        detail: `end of speech → final p95 ${ms(result.p95Ms)}; /healthz p99 ${ms(probes.healthP99Ms)}; event-loop delay p99 ${ms(probes.loop.p99Ms)} (max ${ms(probes.loop.maxMs)})`,
      };
    },
  };

  const busyRun: Scenario = {
    name: `isolation: ${STREAMS} realtime streams, neighbour posting ${NOTE_WORDS / 1000}k-word notes`,
    baseline: quietName,
    async measure(context) {
      context.progress(`isolation: another project posts ${NOTE_WORDS}-word notes back to back`);
      const notes = postNotes(context);
      let outcome: { result: Measurement; probes: Probes };
      try {
        outcome = await probed(context, () => streams.measure(context));
      } finally {
        await notes.stop();
      }
      const { result, probes } = outcome;
      const problems = [...result.problems, ...probes.healthProblems, ...notes.problems];
      if (notes.written === 0) problems.push('no note was written during the run');
      const base = quiet?.measurement;
      const ratio = base === undefined || base.p95Ms === 0 ? null : result.p95Ms / base.p95Ms;
      const verdict = (met: boolean): string => (met ? 'met' : 'NOT met');
      return {
        ...result,
        problems,
        detail: [
          `end of speech → final p95 ${ms(result.p95Ms)} = ${ratio === null ? 'n/a' : `${ratio.toFixed(2)}×`} the quiet run's (target ≤ ${MAX_P95_RATIO}×: ${verdict(ratio !== null && ratio <= MAX_P95_RATIO)})`,
          `/healthz p99 ${ms(probes.healthP99Ms)} (quiet ${quiet === null ? 'n/a' : ms(quiet.probes.healthP99Ms)}; target < ${MAX_HEALTH_P99_MS} ms: ${verdict(probes.healthP99Ms < MAX_HEALTH_P99_MS)})`,
          `event-loop delay p99 ${ms(probes.loop.p99Ms)}, max ${ms(probes.loop.maxMs)} (quiet p99 ${quiet === null ? 'n/a' : ms(quiet.probes.loop.p99Ms)}; target < ${MAX_LOOP_P99_MS} ms: ${verdict(probes.loop.p99Ms < MAX_LOOP_P99_MS)})`,
          `the neighbour's notes: ${notes.written} written, ${notes.refused} refused (503)`,
        ].join('; '),
      };
    },
  };
  return [quietRun, busyRun];
}
