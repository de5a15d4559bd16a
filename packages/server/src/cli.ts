// `serve` runs the service in this process, under the service's V8 settings, which must come
// before any other module of it is loaded; hence the imports below are dynamic.
import './v8-flags.js';

// `chartwright serve` runs the service in this process, so a supervisor's signals reach its
// graceful shutdown; every other command runs once and exits with its code.
if (process.argv[2] === 'serve') {
  await import('./main.js');
} else {
  const { runCli } = await import('./cli/commands.js');
  process.exitCode = await runCli(process.argv.slice(2), process.env, {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  });
}
