import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterEach, describe, expect, it } from 'vitest';

import { BatchedLogDestination, LOG_BATCH_BYTES } from './log-destination.js';
import { createLogger, flushLogs } from './logger.js';

describe('the batched log destination', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  });

  function destinationOnAFile(batchMs: number): { destination: BatchedLogDestination; written: () => string } {
    const directory = mkdtempSync(join(tmpdir(), 'cw-log-'));
    const path = join(directory, 'service.log');
    const fd = openSync(path, 'a');
    cleanups.push(() => {
      closeSync(fd);
      rmSync(directory, { recursive: true, force: true });
    });
    return { destination: new BatchedLogDestination(fd, batchMs), written: () => readFileSync(path, 'utf8') };
  }

  const flushed = (destination: BatchedLogDestination) =>
    new Promise<void>((resolve) => {
      destination.flush(() => resolve());
    });

  it('holds a lone line for others, then writes it within the batch time', async () => {
    const { destination, written } = destinationOnAFile(200);
    destination.write('{"msg":"first"}\n');
    await sleep(50);
    expect(written()).toBe('');
    destination.write('{"msg":"second"}\n');
    await expect.poll(written, { timeout: 2000, interval: 5 }).toBe('{"msg":"first"}\n{"msg":"second"}\n');
  });

  it('writes a full batch at once, without waiting for the timer', async () => {
    const { destination, written } = destinationOnAFile(60_000);
    const line = `{"msg":"${'x'.repeat(500)}"}\n`;
    const lines = Math.ceil((1.5 * LOG_BATCH_BYTES) / line.length);
    for (let i = 0; i < lines; i += 1) destination.write(line);
    await expect.poll(() => written().length, { timeout: 5000, interval: 5 }).toBeGreaterThanOrEqual(LOG_BATCH_BYTES);
    expect(written().length).toBeLessThan(lines * line.length);
    await flushed(destination);
    expect(written()).toBe(line.repeat(lines));
  });

  it('flushes every line logged so far on demand, in order', async () => {
    const { destination, written } = destinationOnAFile(60_000);
    for (let i = 0; i < 5; i += 1) destination.write(`{"n":${i}}\n`);
    await flushed(destination);
    expect(written()).toBe([0, 1, 2, 3, 4].map((n) => `{"n":${n}}\n`).join(''));
    await flushed(destination);
    expect(written().split('\n')).toHaveLength(6);
  });

  it("is flushed through the logger's flushLogs, as the service does before it exits", async () => {
    const { destination, written } = destinationOnAFile(60_000);
    const logger = createLogger('info', destination);
    logger.info({ step: 1 }, 'stopping');
    expect(written()).toBe('');
    await flushLogs(logger);
    expect(JSON.parse(written())).toMatchObject({ step: 1, msg: 'stopping' });
  });
});
