import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `find` until it returns something other than undefined, and resolves with it; `find` throws
 * to give up at once (a process that exited). Timeouts are generous: they catch a hang, and a loaded
 * machine is slow, not wrong. `what` names what never came, for the error.
 */
export async function waitFor<T>(
  what: string | (() => string),
  find: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(50);
  }
}
