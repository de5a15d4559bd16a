import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Browser } from 'playwright-core';
import { bench, describe } from 'vitest';

import { launchChromium, missingBrowser } from '@chartwright/testing/browser.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { startHostServer, type HostServer } from './test-support/host-page.js';

/**
 * Time to WIDGET_READY on a cold load (`npx vitest bench --run packages/widget`): each iteration
 * opens a fresh browser context (empty cache) on an EMR page from another origin, and the page
 * measures from inserting the iframe to receiving WIDGET_READY — the widget page, its script and
 * style, and its session check with the service. The page's own figures are printed at the end;
 * the bench's timing also counts opening the context and the EMR page.
 */
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

declare global {
  interface Window {
    timing: { inserted: number | null; ready: number | null };
  }
}

interface Fixture {
  browser: Browser;
  h: Harness;
  host: HostServer;
  /** The widget page's address, with a token (one serves every load: a cold load is about the cache). */
  widgetUrl: string;
}

async function startFixture(): Promise<Fixture> {
  execFileSync(process.execPath, [join(packageDir, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
  const browser = await launchChromium();
  const h = await createHarness({ config: { logLevel: 'silent' } });
  const widgetOrigin = await h.app.listen({ port: 0, host: '127.0.0.1' });
  const host = await startHostServer();
  const { partnerKey } = await h.createPartner({ origins: [host.origin] });
  const { token } = await h.mintWidgetToken(partnerKey, { userEmail: 'dr@clinic.example', emrUserId: 'emr-1' });
  return { browser, h, host, widgetUrl: `${widgetOrigin}/widget?token=${encodeURIComponent(token)}` };
}

let fixture: Promise<Fixture> | undefined;
const samples: number[] = [];

function report(): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
  process.stdout.write(
    `iframe inserted → WIDGET_READY, ${sorted.length} cold loads: p50 ${at(0.5).toFixed(0)} ms, ` +
      `p90 ${at(0.9).toFixed(0)} ms, min ${at(0).toFixed(0)} ms, max ${at(1).toFixed(0)} ms\n`,
  );
}

describe.skipIf(missingBrowser().length > 0)('widget cold load', () => {
  bench(
    'iframe inserted → WIDGET_READY (fresh context, empty cache)',
    async () => {
      const { browser, host, widgetUrl } = await (fixture ??= startFixture());
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(host.pageUrl(widgetUrl));
      await page.waitForFunction(() => window.timing.ready !== null);
      const { inserted, ready } = await page.evaluate(() => window.timing);
      samples.push((ready ?? NaN) - (inserted ?? NaN));
      await context.close();
    },
    {
      iterations: 30,
      time: 0,
      warmupIterations: 3,
      setup: (_task, mode) => {
        if (mode === 'run') samples.length = 0;
      },
      teardown: async (_task, mode) => {
        if (mode !== 'run' || fixture === undefined) return;
        report();
        const { browser, h, host } = await fixture;
        await browser.close();
        await host.close();
        await h.close();
      },
    },
  );
});
