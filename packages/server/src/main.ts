import './v8-flags.js';
import type { RunningServer } from './server.js';

// Loaded only now, after the V8 settings above: a static import would load and run the whole
// service's modules first, under V8's defaults.
const { createServer } = await import('./server.js');
const { ConfigError } = await import('./config/config.js');

async function start(): Promise<RunningServer | null> {
  try {
    return await createServer(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`chartwright: ${error.message}\n`);
    } else {
      process.stderr.write(`chartwright: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exitCode = 1;
    return null;
  }
}

/** The started service, or null when it could not start (the reason was printed); `npm start` adds the demo EMR to it. */
export const running = await start();
