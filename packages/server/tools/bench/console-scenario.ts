/**
 * The console app (packages/console) as a person meets it: what the browser downloads (its build,
 * gzip-compressed), and cold loads in Debian's Chromium on loopback — a fresh browser context (empty
 * cache) with a signed-in session, from navigating to /console#/projects/<id>/keys until the keys
 * are listed (the app's `chartwright:keys-listed` User Timing mark, on the page's own clock). The
 * baseline is a cold load of /healthz in the same way, in the same run: the browser's own cost of a
 * new context and a navigation, which the console's figure includes.
 */
import { existsSync } from 'node:fs';
import { createHistogram, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { chromium, type Browser, type Page } from 'playwright-core';

import { bundleSize } from '../../../../scripts/bundle-size.mjs';
import type { Targets } from './ipc.js';
import type { Measurement, Scenario, ScenarioContext } from './runner.js';

/** Debian's Chromium (apt-get install chromium), as the browser tests use it. */
const CHROMIUM = '/usr/bin/chromium';
const CONSOLE_DIST = fileURLToPath(new URL('../../../console/dist', import.meta.url));
const KEYS_LISTED_MARK = 'chartwright:keys-listed';
/** The target for a cold load of the keys page on loopback. */
const TARGET_MS = 500;
const SESSION_COOKIE = 'cw_console';

export const CONSOLE_BASELINE = 'cold load in Chromium: /healthz (baseline)';

interface Load {
  url(targets: Targets): string;
  /** Milliseconds from navigation start to the moment that counts, read in the page. */
  until(page: Page): Promise<number>;
}

const healthz: Load = {
  url: (targets) => `${targets.apiOrigin}/healthz`,
  until: async (page) => {
    await page.waitForLoadState('load');
    // A string, read in the page: the tools are typed for Node, whose entry types hold no 'navigation'.
    return page.evaluate<number>("performance.getEntriesByType('navigation')[0]?.duration ?? NaN");
  },
};

const consoleKeys: Load = {
  url: (targets) => `${targets.apiOrigin}/console#/projects/${encodeURIComponent(targets.projectId)}/keys`,
  until: async (page) => {
    await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, KEYS_LISTED_MARK);
    return page.evaluate((mark) => performance.getEntriesByName(mark)[0]?.startTime ?? NaN, KEYS_LISTED_MARK);
  },
};

/** The bench owner's session cookie: the first-start setup, once per run (its link works once). */
let session: Promise<string> | undefined;

async function signIn(targets: Targets): Promise<string> {
  const response = await fetch(`${targets.apiOrigin}/api/v1/console/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      token: targets.consoleSetupToken,
      organisationName: 'Benchmark',
      name: 'Bench Owner',
      email: 'owner@bench.example',
      password: 'benchmark passphrase',
    }),
  });
  if (response.status !== 201) throw new Error(`console setup answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
  const value = cookie?.split(';')[0]?.slice(SESSION_COOKIE.length + 1);
  if (value === undefined) throw new Error('console setup set no session cookie');
  return value;
}

async function coldLoads(browser: Browser, load: Load, context: ScenarioContext, seconds: number): Promise<number[]> {
  const cookie = await (session ??= signIn(context.targets));
  const samples: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const browserContext = await browser.newContext();
    await browserContext.addCookies([{ name: SESSION_COOKIE, value: cookie, url: context.targets.apiOrigin }]);
    const page = await browserContext.newPage();
    await page.goto(load.url(context.targets), { waitUntil: 'commit' });
    samples.push(await load.until(page));
    await browserContext.close();
  }
  return samples;
}

function measurementOf(samples: readonly number[], seconds: number, detail?: string): Measurement {
  const histogram = createHistogram({ lowest: 1, highest: 60_000_000, figures: 3 });
  for (const ms of samples) histogram.record(Math.max(1, Math.round(ms * 1000)));
  const total = samples.reduce((sum, ms) => sum + ms, 0);
  const broken = samples.filter((ms) => !Number.isFinite(ms)).length;
  return {
    responses: samples.length,
    seconds,
    // Loads one after another: per second of load time, as the table's throughput column reads.
    requestsPerSecond: total > 0 ? (samples.length * 1000) / total : 0,
    p50Ms: histogram.percentile(50) / 1000,
    p95Ms: histogram.percentile(95) / 1000,
    p99Ms: histogram.percentile(99) / 1000,
    problems: broken > 0 ? [`${broken} loads gave no timing`] : [],
    ...(detail === undefined ? {} : { detail }),
  };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** What the browser downloads, compressed, file by file. */
function bundleLine(): string {
  const size = bundleSize(CONSOLE_DIST);
  const files = size.files.map(({ file, gzipBytes }) => `${file.replace(/-[\w-]+\./, '-….')} ${kib(gzipBytes)}`);
  return `bundle ${kib(size.gzipBytes)} gzip (${files.join(', ')})`;
}

function loadScenario(name: string, load: Load, baseline?: string): Scenario {
  return {
    name,
    ...(baseline === undefined ? {} : { baseline }),
    async measure(context): Promise<Measurement> {
      const missing = [CHROMIUM, `${CONSOLE_DIST}/index.html`].filter((path) => !existsSync(path));
      if (missing.length > 0) return { ...measurementOf([], 0), problems: [`missing ${missing.join(', ')}`] };
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      try {
        const { settings, progress } = context;
        progress(`${name}: warming up ${settings.warmupSeconds} s`);
        await coldLoads(browser, load, context, settings.warmupSeconds);
        progress(`${name}: measuring ${settings.durationSeconds} s of cold loads, one after another`);
        const started = performance.now();
        const samples = await coldLoads(browser, load, context, settings.durationSeconds);
        const measured = measurementOf(samples, (performance.now() - started) / 1000);
        if (baseline === undefined) return measured;
        const verdict = measured.p50Ms <= TARGET_MS ? 'met' : 'below target';
        return {
          ...measured,
          detail: `${bundleLine()}; p50 ${measured.p50Ms.toFixed(0)} ms, target ≤ ${TARGET_MS} ms: ${verdict}`,
        };
      } finally {
        await browser.close();
      }
    },
  };
}

/** The baseline, then the console: each a run of cold loads. */
export function consoleScenarios(): Scenario[] {
  return [
    loadScenario(CONSOLE_BASELINE, healthz),
    loadScenario('cold load in Chromium: /console → keys listed', consoleKeys, CONSOLE_BASELINE),
  ];
}
