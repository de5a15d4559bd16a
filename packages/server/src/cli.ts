import { runCli } from './cli/commands.js';

// `chartwright serve` runs the service in this process, so a supervisor's signals reach its
// graceful shutdown; every other command runs once and exits with its code.
if (process.argv[2] === 'serve') {
  await import('./main.js');
} else {
  process.exitCode = await runCli(process.argv.slice(2), process.env, {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  });
}
