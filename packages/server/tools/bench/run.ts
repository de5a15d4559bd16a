/**
 * `npm run bench`: starts the servers under test in a child process, drives every scenario from
 * this process with autocannon, and prints one table. Exits non-zero only when the run itself
 * failed (a wrong status, socket errors, a target that would not start); a missed target ratio is
 * a finding, printed as "below target", not a failure of the tool.
 *
 * Environment: BENCH_DURATION_SECONDS (default 10) and BENCH_WARMUP_SECONDS (default 3), per scenario;
 * the realtime levels measure for at least 30 s (realtime-scenario.ts). BENCH_ONLY: comma-separated
 * parts of scenario names; only the scenarios whose name holds one run, with their baselines.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { UsageError } from '@chartwright/server/internal/cli/usage.js';
import { loadConfig } from '@chartwright/server/internal/config/config.js';

import { describeMachine } from '../shared/machine.js';
import { isTargetMessage, recognizerEnvironment, type Targets } from './ipc.js';
import { detailLines, idleShare, resultsTable, type ScenarioResult } from './report.js';
import type { LoadSettings, Scenario } from './runner.js';
import { selectScenarios, SCENARIOS } from './scenarios.js';

const READY_TIMEOUT_MS = 30_000;
/** Below this share of idle CPU before the run, the figures are likely skewed by other work. */
const QUIET_IDLE_SHARE = 0.9;
const STOP_TIMEOUT_MS = 10_000;

const out = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > 3600) {
    throw new UsageError(`${name} must be a whole number of seconds from ${min} to 3600, got "${raw}"`);
  }
  return value;
}

function loadSettings(env: NodeJS.ProcessEnv): LoadSettings {
  return {
    // Ten connections keep both servers saturated on loopback without queueing so deep that the
    // latency figures mostly measure the queue; no pipelining, since real API clients do not pipeline.
    connections: 10,
    pipelining: 1,
    warmupSeconds: seconds(env, 'BENCH_WARMUP_SECONDS', 3, 0),
    durationSeconds: seconds(env, 'BENCH_DURATION_SECONDS', 10, 1),
  };
}

/** Where the target's stdout (the service's log) goes: a file, as a process supervisor would keep it. */
const serviceLogOf = (directory: string): string => join(directory, 'service.log');

/** Forks the target process and waits for it to report where it listens. */
async function startTargets(directory: string): Promise<{ child: ChildProcess; targets: Targets }> {
  const log = openSync(serviceLogOf(directory), 'a');
  // The child inherits this process's Node flags, so `node --cpu-prof run.js` profiles both sides.
  const child = fork(fileURLToPath(new URL('./target.js', import.meta.url)), [directory], {
    stdio: ['ignore', log, 'inherit', 'ipc'],
  });
  closeSync(log);
  try {
    const targets = await new Promise<Targets>((resolve, reject) => {
      function settle(outcome: Targets | Error): void {
        clearTimeout(timer);
        child.off('message', onMessage).off('exit', onExit).off('error', settle);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      }
      function onMessage(message: unknown): void {
        if (!isTargetMessage(message)) return;
        if (message.type === 'ready') settle(message.targets);
        else settle(new Error(`the bench target failed to start:\n${message.message}`));
      }
      function onExit(code: number | null): void {
        settle(new Error(`the bench target exited (code ${String(code)}) before it was ready`));
      }
      const timer = setTimeout(() => settle(new Error('the bench target was not ready in time')), READY_TIMEOUT_MS);
      child.on('message', onMessage).on('exit', onExit).on('error', settle);
    });
    return { child, targets };
  } catch (error) {
    child.kill();
    throw error;
  }
}

async function stopTargets(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.send({ type: 'stop' });
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

async function main(): Promise<number> {
  const settings = loadSettings(process.env);
  const scenarios = selectScenarios(SCENARIOS, process.env['BENCH_ONLY']);
  out('Chartwright benchmark');
  for (const line of describeMachine()) out(`  ${line}`);
  out(
    `  Load:   autocannon, ${settings.connections} connections, pipelining ${settings.pipelining}, ` +
      `${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per scenario, loopback`,
  );
  const { asr, realtime } = loadConfig(recognizerEnvironment(process.env));
  out(
    `  ASR:    PocketSphinx, ${asr.vocabulary} vocabulary, second pass ${asr.secondPass ? 'on' : 'off'}, ` +
      `streams admitted up to ${realtime.recognizerMaxLoadPercent}% of the workers' cores`,
  );
  out("  Logs:   the default (LOG_LEVEL=info), JSON lines on the service's stdout, a file");
  const idle = await idleShare();
  out(`  Idle:   ${(idle * 100).toFixed(0)}% of CPU time idle in the second before the run`);
  if (idle < QUIET_IDLE_SHARE) {
    out('  WARNING: something else is using the CPU; these figures will be low and noisy. Re-run on a quiet machine.');
  }
  out();

  // Created here rather than in the child, so it goes away even when the child is killed.
  const directory = mkdtempSync(join(tmpdir(), 'chartwright-bench-'));
  try {
    return await runScenarios(scenarios, settings, directory);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Lines and bytes of the service's log, read in chunks: a run writes tens of megabytes. */
async function logSize(path: string): Promise<{ lines: number; bytes: number }> {
  let lines = 0;
  let bytes = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
  }
  return { lines, bytes };
}

async function runScenarios(
  scenarios: readonly Scenario[],
  settings: LoadSettings,
  directory: string,
): Promise<number> {
  const { child, targets } = await startTargets(directory);
  let stopping = false;
  child.once('exit', (code, signal) => {
    // Scenarios after this point fail on their own (connection refused); this says why.
    if (!stopping)
      process.stderr.write(`bench: the target process died (code ${String(code)}, signal ${String(signal)})\n`);
  });
  const results: ScenarioResult[] = [];
  let log: { lines: number; bytes: number };
  try {
    for (const scenario of scenarios) {
      const measurement = await scenario.measure({ targets, settings, progress: (line) => out(`  ${line}`) });
      results.push({ scenario, measurement });
    }
    // Before the target stops: it removes the directory as it goes.
    log = await logSize(serviceLogOf(directory));
  } finally {
    stopping = true;
    await stopTargets(child);
  }

  out();
  out(resultsTable(results));
  const details = detailLines(results);
  if (details.length > 0) out();
  for (const line of details) out(line);
  out();
  out(`Service log: ${integer.format(log.lines)} lines, ${(log.bytes / 1e6).toFixed(1)} MB`);

  const failures = results.filter((result) => result.measurement.problems.length > 0);
  if (failures.length === 0) return 0;
  out();
  out('The run FAILED; these figures are not valid:');
  for (const { scenario, measurement } of failures) {
    for (const problem of measurement.problems) out(`  ${scenario.name}: ${problem}`);
  }
  return 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
