import { createServer } from './server.js';
import { ConfigError } from './config/config.js';

try {
  await createServer(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`chartwright: ${error.message}\n`);
  } else {
    process.stderr.write(`chartwright: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exitCode = 1;
}
