import { setImmediate as nextTurn } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { TurnTakingQueue } from './turn-taking-queue.js';

function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Stands in for a decoder working through audio.
  }
}

async function drained(queue: TurnTakingQueue): Promise<void> {
  while (queue.size > 0) await nextTurn();
}

describe('TurnTakingQueue', () => {
  it('runs jobs in order, and what the loop has waiting runs between slices', async () => {
    const queue = new TurnTakingQueue();
    const log: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      queue.push(() => {
        busyFor(15);
        log.push(name);
        // Queued while a slice runs, like a decoder load ending on the loop.
        if (name === 'a') setImmediate(() => log.push('loop'));
      });
    }
    expect(queue.size).toBe(3);
    await drained(queue);
    expect(log).toEqual(['a', 'loop', 'b', 'c']);
  });

  it('runs short jobs many to a slice, in order, however many were queued', async () => {
    const queue = new TurnTakingQueue();
    const ran: number[] = [];
    for (let index = 0; index < 5000; index++) queue.push(() => ran.push(index));
    await drained(queue);
    expect(ran).toEqual(Array.from({ length: 5000 }, (_, index) => index));
    // Queued after it went idle: it starts again.
    queue.push(() => ran.push(-1));
    await drained(queue);
    expect(ran.at(-1)).toBe(-1);
  });
});
