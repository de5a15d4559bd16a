/**
 * What `npm run bench` measures, in the order it measures it. A scenario with a baseline is
 * reported as a share of that baseline's throughput in the same run, never against a figure from
 * another run or machine. Add later scenarios (widget token minting, note generation, realtime
 * streams) here, each after the baseline it is compared with.
 */
import { UsageError } from '@chartwright/server/internal/cli/usage.js';
import { CURATED_TEMPLATES_JSON } from '@chartwright/server/internal/notes/templates.js';

import { ACI_BENCH_VALID } from '../shared/datasets.js';
import type { Targets } from './ipc.js';
import { TEMPLATES_PATH } from './ipc.js';
import { consoleScenarios } from './console-scenario.js';
import { conversationParsingScenario, noteGenerationScenario } from './notes-scenario.js';
import { neighbourScenarios } from './neighbour-scenario.js';
import { realtimeScenario } from './realtime-scenario.js';
import { interleavedHttpScenarios, type Scenario } from './runner.js';

const BARE_TEMPLATES = 'bare Fastify: GET templates';
const BARE_STATIC_TEMPLATES = 'bare Fastify: GET templates, serialized once';
const AUTH_TEMPLATES = 'GET /api/v1/templates (key auth)';

/**
 * Every templates request sends the same Authorization header, so all servers parse the same
 * request and the difference is only what each does with it.
 */
const templatesFrom = (origin: (targets: Targets) => string) => (targets: Targets) => ({
  url: origin(targets) + TEMPLATES_PATH,
  headers: { authorization: `Bearer ${targets.apiKey}` },
  expectedStatus: 200,
  expectedBody: CURATED_TEMPLATES_JSON,
});

const ONE_STREAM = realtimeScenario(1, 'staggered');

const NOTES_DATA = process.env['BENCH_NOTES_JSONL'] ?? ACI_BENCH_VALID;

export const SCENARIOS: readonly Scenario[] = [
  // Each group measured in turns (runner.ts), so its ratios compare the same minutes of the machine.
  ...interleavedHttpScenarios([
    { name: BARE_TEMPLATES, request: templatesFrom((targets) => targets.bareOrigin) },
    {
      name: AUTH_TEMPLATES,
      baseline: BARE_TEMPLATES,
      minRatio: 0.8,
      request: templatesFrom((targets) => targets.apiOrigin),
    },
    // Minting a widget token: partner key check, clinician lookup (the same clinician every time, so
    // no write), an Ed25519 signature. Compared with the authenticated templates route.
    {
      name: 'POST /api/widget/token (partner key)',
      baseline: AUTH_TEMPLATES,
      minRatio: 0.5,
      request: (targets) => ({
        url: `${targets.apiOrigin}/api/widget/token`,
        method: 'POST',
        headers: { 'x-partner-key': targets.partnerKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          userEmail: 'clinician@bench.example',
          emrUserId: 'bench-user',
          emrSessionId: 'bench-visit',
        }),
        expectedStatus: 200,
      }),
    },
  ]),
  // A stricter comparison, reported without a target: the baseline also skips serialization, so
  // the gap is only the service's per-request work (auth, rate limit, ids, headers, logging).
  ...interleavedHttpScenarios([
    { name: BARE_STATIC_TEMPLATES, request: templatesFrom((targets) => targets.bareStaticOrigin) },
    {
      name: 'GET /api/v1/templates (key auth) vs static',
      baseline: BARE_STATIC_TEMPLATES,
      request: templatesFrom((targets) => targets.apiOrigin),
    },
  ]),
  // Single-threaded, so notes per second here is notes per second per core.
  conversationParsingScenario(NOTES_DATA),
  noteGenerationScenario(NOTES_DATA),
  // Realtime transcription: one stream, then more at once, each compared with the one-stream rate;
  // last, the most streams again with every utterance ending at the same instant (the worst case).
  ONE_STREAM,
  ...[4, 8, 16].map((streams) => realtimeScenario(streams, 'staggered', ONE_STREAM.name)),
  realtimeScenario(16, 'lockstep', ONE_STREAM.name),
  // Isolation between tenants: the 16 streams again, quiet and then beside another project's notes.
  ...neighbourScenarios(),
  // The console app: cold loads in Chromium (a fresh context each), after a blank navigation's.
  ...consoleScenarios(),
];

/**
 * The scenarios whose names hold one of the comma-separated parts of `only` (all when it is unset),
 * each with the baselines it is compared with, in the order of `all`.
 */
export function selectScenarios(all: readonly Scenario[], only: string | undefined): readonly Scenario[] {
  const parts = (only ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '');
  if (parts.length === 0) return all;
  const chosen = new Set(all.filter((scenario) => parts.some((part) => scenario.name.toLowerCase().includes(part))));
  if (chosen.size === 0) {
    throw new UsageError(
      `BENCH_ONLY matches no scenario; the scenarios are:\n${all.map((s) => `  ${s.name}`).join('\n')}`,
    );
  }
  for (const scenario of [...chosen]) {
    for (let baseline = scenario.baseline; baseline !== undefined;) {
      const found = all.find((candidate) => candidate.name === baseline);
      if (found === undefined) break;
      chosen.add(found);
      baseline = found.baseline;
    }
  }
  return all.filter((scenario) => chosen.has(scenario));
}
