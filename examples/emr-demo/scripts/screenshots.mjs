// Takes the screenshots in docs/images/ of the widget (320 px and wide) and of the demo EMR, from a
// real run: the built service and demo EMR as `npm start` runs them (on a scratch database), Debian's
// Chromium, and a fake microphone playing a visit spoken by flite. Run after `npm start` or `npm test`
// has built everything: npm run screenshots -w @chartwright/emr-demo
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const images = join(root, 'docs', 'images');
const load = (path) => import(pathToFileURL(join(root, path)).href);
const { createServer } = await load('packages/server/dist/server.js');
const { encodeWav, parseWav } = await load('packages/server/dist/asr/wav.js');
const { startDemoBesideService } = await load('examples/emr-demo/dist/server.js');

const VISIT = 'i have had a cough and a wheeze for a week and my inhaler does not help at night';

async function freePort() {
  return new Promise((resolve) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The visit spoken by flite, with a second of quiet noise either side so each loop is an utterance of its own. */
function spokenVisit(directory) {
  const plain = join(directory, 'plain.wav');
  execFileSync('flite', ['-voice', 'slt', '-t', VISIT, '-o', plain]);
  const { samples, sampleRate } = parseWav(readFileSync(plain));
  const quiet = Int16Array.from({ length: sampleRate }, (_, i) => Math.round(Math.sin(i * 12.9898) * 20));
  const padded = new Int16Array(quiet.length * 2 + samples.length);
  padded.set(quiet);
  padded.set(samples, quiet.length);
  padded.set(quiet, quiet.length + samples.length);
  const file = join(directory, 'visit.wav');
  writeFileSync(file, encodeWav(padded, sampleRate));
  return file;
}

const scratch = mkdtempSync(join(tmpdir(), 'chartwright-screenshots-'));
const port = await freePort();
const service = await createServer({
  PORT: String(port),
  PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
  DATABASE_URL: join(scratch, 'screenshots.db'),
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  REALTIME_RECOGNIZER_WORKERS: '1',
});
const demo = await startDemoBesideService(
  {
    address: service.app.server.address(),
    widgetBaseUrl: service.config.widgetBaseUrl,
    seedDemoPartner: (origin) => service.seedDemoPartner(origin),
  },
  { port: null },
);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${spokenVisit(scratch)}`,
  ],
});

try {
  const chart = `${demo.url}/patients/MRN-1002`;
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await page.goto(chart);
  const widget = page.frameLocator('iframe[title="Chartwright scribe"]');
  await widget.getByRole('button', { name: 'Patient consents to recording' }).click();
  await widget.getByRole('button', { name: 'Record' }).click();
  const transcript = widget.getByRole('log', { name: 'Transcript' });
  await transcript.getByRole('listitem').nth(1).waitFor({ timeout: 60_000 });
  await widget.getByRole('button', { name: 'Generate note' }).click();
  await widget
    .getByRole('textbox', { name: 'Plan' })
    .fill('Salbutamol four times a day for a week. Review in seven days.');
  await widget.getByRole('button', { name: 'Send to chart' }).first().click();
  await page.getByRole('region', { name: 'Notes in chart' }).getByRole('article').first().waitFor();
  await page.screenshot({ path: join(images, 'emr-demo.png'), fullPage: true });

  // The same visit reopened (the widget restores it), alone on the page: 320 px wide, then wide.
  for (const [name, width] of [
    ['widget-narrow.png', 320],
    ['widget-wide.png', 900],
  ]) {
    // The style only frames the shot (the demo's own policy would refuse it).
    const view = await browser.newPage({ viewport: { width, height: 1000 }, bypassCSP: true });
    await view.goto(chart);
    await view.addStyleTag({
      content: `.topbar, .patients, .chart > div, .scribe .controls, .scribe form { display: none }
        main { padding: 0 } .layout, .chart { display: block }
        .scribe .frame { height: 100vh; max-height: none; min-height: 0; border: 0; border-radius: 0 }`,
    });
    const frame = view.frameLocator('iframe[title="Chartwright scribe"]');
    await frame.getByRole('textbox', { name: 'Plan' }).waitFor();
    await view.screenshot({ path: join(images, name) });
    await view.close();
  }
  process.stdout.write(`screenshots written to ${images}\n`);
} finally {
  await browser.close();
  await demo.close();
  await service.stop();
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(0);
