import { EngineFailure } from './errors.js';

/**
 * Runs `work` with a signal that aborts when the caller's does or when `timeoutMs` passes. A
 * caller's abort rejects with its reason (never a provider failure); running out of time is a
 * `provider_timeout`; `onFailure` hears every EngineFailure with how long the work ran.
 */
export async function withDeadline<T>(
  options: {
    timeoutMs: number;
    signal: AbortSignal | undefined;
    onFailure: (failure: EngineFailure, ms: number) => void;
  },
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { timeoutMs, signal: callerSignal } = options;
  callerSignal?.throwIfAborted();
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => {
    controller.abort(callerSignal?.reason);
  };
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const started = performance.now();
  try {
    return await work(controller.signal);
  } catch (error) {
    callerSignal?.throwIfAborted();
    const failure = controller.signal.aborted
      ? new EngineFailure('provider_timeout', `no complete reply within ${timeoutMs} ms`, { cause: error })
      : error;
    if (failure instanceof EngineFailure) options.onFailure(failure, elapsedMs(started));
    throw failure;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

export const elapsedMs = (started: number): number => Math.round(performance.now() - started);
