/**
 * A fixed number of worker processes, each in a slot: forked with their settings in the
 * environment, ready once they say so, replaced when they exit (with a back-off when they keep
 * dying at start), and stopped together. What the workers do, and what fails with one that exits,
 * is the pool's (the recognizer's, the note writer's).
 */
import { fork, type ChildProcess } from 'node:child_process';

import { SERVICE_V8_FLAGS } from './v8-flags.js';

export interface SupervisedWorker<State> {
  /** Its place in the pool, 0 to size − 1, which its replacement takes. */
  readonly slot: number;
  readonly child: ChildProcess;
  readonly startedAt: number;
  /** Settles when the worker reports `ready`; rejects when it exits first or is refused. */
  readonly started: Promise<void>;
  readonly ready: boolean;
  /** What the pool keeps per worker (its jobs, its streams). */
  readonly state: State;
}

export interface WorkerSupervisorOptions<State, Message extends { type: string }> {
  size: number;
  workerPath: () => string;
  /** The variable that carries `settings` (as JSON) to the worker. */
  settingsVariable: string;
  settings: unknown;
  newState: () => State;
  /** Every message, `ready` included (after the worker is marked ready). */
  onMessage: (worker: SupervisedWorker<State>, message: Message) => void;
  /** The worker exited (`how`: its signal or exit code) and left its slot: fail what it carried. */
  onExit: (worker: SupervisedWorker<State>, how: string) => void;
  /** Why a worker that exited before it was ready failed to start, for whoever waits on it. */
  exitedBeforeReady: () => Error;
  /** Whether a worker that exited is replaced (not when what it needs cannot load). */
  replaceable?: () => boolean;
}

const MAX_RESTART_DELAY_MS = 5_000;
/** A worker that dies within this long of its start counts as a failed start. */
const FAILED_START_MS = 1_000;

interface Slot<State> extends SupervisedWorker<State> {
  ready: boolean;
  markReady: () => void;
  markFailed: (error: Error) => void;
}

export class WorkerSupervisor<State, Message extends { type: string }> {
  readonly #slots: (Slot<State> | undefined)[];
  #started = false;
  #closed = false;
  #failedStarts = 0;

  constructor(private readonly options: WorkerSupervisorOptions<State, Message>) {
    this.#slots = Array.from({ length: options.size }, () => undefined);
  }

  /** Forks every worker not running yet. */
  start(): void {
    this.#started = true;
    for (let slot = 0; slot < this.#slots.length; slot++) this.#slots[slot] ??= this.spawn(slot);
  }

  get started(): boolean {
    return this.#started;
  }

  /** The live workers. */
  workers(): SupervisedWorker<State>[] {
    return this.#slots.filter((worker) => worker !== undefined);
  }

  /** Process ids of the live workers (supervision tests, diagnostics). */
  pids(): number[] {
    return this.workers().flatMap((worker) => (worker.child.pid === undefined ? [] : [worker.child.pid]));
  }

  /** Fails a worker's start (it reported that it cannot work); it is not marked ready. */
  refuse(worker: SupervisedWorker<State>, error: Error): void {
    this.#slots.find((slot) => slot === worker)?.markFailed(error);
  }

  /** Stops every worker and resolves once they have exited; none is replaced after. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(
      this.#slots.map(async (worker) => {
        if (worker?.child.exitCode !== null || worker.child.signalCode !== null) return;
        const exited = new Promise((resolve) => worker.child.once('exit', resolve));
        worker.child.kill('SIGTERM');
        await exited;
      }),
    );
  }

  get closed(): boolean {
    return this.#closed;
  }

  private spawn(slot: number): Slot<State> {
    const child = fork(this.options.workerPath(), [], {
      execArgv: [...process.execArgv, ...SERVICE_V8_FLAGS],
      serialization: 'advanced',
      env: { ...process.env, [this.options.settingsVariable]: JSON.stringify(this.options.settings) },
      // The worker's own stdout/stderr stay the service's.
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let markReady!: () => void;
    let markFailed!: (error: Error) => void;
    const started = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    // Nobody need wait for a worker's start: its failure must not be an unhandled rejection.
    started.catch(() => undefined);
    const worker: Slot<State> = {
      slot,
      child,
      startedAt: Date.now(),
      started,
      ready: false,
      state: this.options.newState(),
      markReady,
      markFailed,
    };
    child.on('message', (message: Message) => {
      if (message.type === 'ready') {
        worker.ready = true;
        this.#failedStarts = 0;
        markReady();
      }
      this.options.onMessage(worker, message);
    });
    child.on('error', () => {
      // Spawn or IPC failure: 'exit' follows and does the cleanup.
    });
    child.once('exit', (code, signal) => {
      markFailed(this.options.exitedBeforeReady());
      this.onExit(slot, worker, signal ?? `code ${code ?? 'unknown'}`);
    });
    return worker;
  }

  private onExit(slot: number, worker: Slot<State>, how: string): void {
    if (this.#slots[slot] === worker) this.#slots[slot] = undefined;
    this.options.onExit(worker, how);
    if (this.#closed || this.options.replaceable?.() === false) return;
    // A worker that dies right after starting is likely to again: back off rather than spin.
    if (Date.now() - worker.startedAt < FAILED_START_MS) this.#failedStarts++;
    const delay = this.#failedStarts === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 100 * 2 ** this.#failedStarts);
    setTimeout(() => {
      if (!this.#closed && this.#slots[slot] === undefined) this.#slots[slot] = this.spawn(slot);
    }, delay).unref();
  }
}
