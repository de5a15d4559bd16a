import { UserAbortError } from '../errors.js';

/** Waits `ms`, or rejects with `UserAbortError` as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new UserAbortError({ cause: signal.reason }));
      return;
    }
    const aborted = () => {
      clearTimeout(timer);
      reject(new UserAbortError({ cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
