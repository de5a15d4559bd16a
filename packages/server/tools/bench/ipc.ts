/**
 * Messages between the benchmark runner (parent, load generator) and the target process (child,
 * servers under test). Kept in one module so both sides agree on the shape at compile time.
 */

import { endpoint } from '@chartwright/protocol';
import { fastifyPath } from '@chartwright/server/internal/http/paths.js';

/**
 * The templates route, mounted at the same path on both apps so routing costs the same and only
 * what surrounds the handler differs.
 */
export const TEMPLATES_PATH = fastifyPath(endpoint('listTemplates'));

/** Where the servers under test listen, and the credential the authenticated scenarios send. */
export interface Targets {
  /** Origin of the real service built by buildApp, e.g. http://127.0.0.1:40123. */
  readonly apiOrigin: string;
  /** Origin of the bare Fastify app whose route returns the template objects (serialized per request). */
  readonly bareOrigin: string;
  /** Origin of the bare Fastify app whose route sends the list serialized once, as the service does. */
  readonly bareStaticOrigin: string;
  /** A sandbox (sk_test_) key of a project created for this run. */
  readonly apiKey: string;
  /** `X-Partner-Key` of a partner of that project, for the widget token scenario. */
  readonly partnerKey: string;
  /** The recognizer's worker processes, whose CPU the realtime scenarios read (empty without it). */
  readonly recognizerPids: readonly number[];
  /** A sandbox key of a second project: the noisy neighbour of the isolation scenario. */
  readonly neighbourKey: string;
  /** Reads the service process's event-loop delay (see loop-delay-probe.ts). */
  readonly probeOrigin: string;
  /** The project of `apiKey`, whose keys page the console scenario loads. */
  readonly projectId: string;
  /** The first-start setup link's token, with which the console scenario signs its owner in. */
  readonly consoleSetupToken: string;
}

export type TargetMessage = { type: 'ready'; targets: Targets } | { type: 'failed'; message: string };

export interface RunnerMessage {
  type: 'stop';
}

export function isTargetMessage(value: unknown): value is TargetMessage {
  if (typeof value !== 'object' || value === null || !('type' in value)) return false;
  return value.type === 'ready' || value.type === 'failed';
}

export function isRunnerMessage(value: unknown): value is RunnerMessage {
  return typeof value === 'object' && value !== null && 'type' in value && value.type === 'stop';
}

/**
 * The recognizer settings the bench's caller may set (`ASR_SECOND_PASS=true npm run bench`, or
 * `REALTIME_RECOGNIZER_MAX_LOAD_PERCENT=0` to admit streams past the recognizer's capacity): the
 * target passes them to its config, and the runner prints what they amount to.
 */
export function recognizerEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const names = new Set(['ASR_SECOND_PASS', 'ASR_VOCABULARY', 'REALTIME_RECOGNIZER_MAX_LOAD_PERCENT']);
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => names.has(entry[0]) && entry[1] !== undefined),
  );
}
