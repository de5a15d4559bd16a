// `npm start`: set up what a fresh clone lacks, then run the service in this process so signals
// (Ctrl-C, SIGTERM from a supervisor) reach its graceful shutdown directly.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { setup } from './setup.mjs';
import { ensureRecognizerPackages } from './system-packages.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
setup();
ensureRecognizerPackages();
const { running } = await import(pathToFileURL(join(root, 'packages', 'server', 'dist', 'main.js')).href);
if (running !== null) await startDemoEmr(running);

/** The demo EMR beside the service, on an origin of its own (DEMO_EMR=false leaves it out). */
async function startDemoEmr(service) {
  const demo = await import(pathToFileURL(join(root, 'examples', 'emr-demo', 'dist', 'server.js')).href);
  try {
    const settings = demo.demoSettings(process.env);
    if (!settings.enabled) return;
    const emr = await demo.startDemoBesideService(
      {
        address: service.app.server.address(),
        widgetBaseUrl: service.config.widgetBaseUrl,
        seedDemoPartner: (origin) => service.seedDemoPartner(origin),
      },
      settings,
    );
    process.stdout.write(`Demo EMR (embeds the widget, synthetic patients): ${emr.url}\n`);
  } catch (error) {
    // The demo is an extra: the service keeps running without it.
    process.stderr.write(`chartwright: the demo EMR did not start: ${error.message}\n`);
  }
}
