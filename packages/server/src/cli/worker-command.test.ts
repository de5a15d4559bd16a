import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { NoteOrProgress, NoteProgress } from '@chartwright/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { loadConfig, testConfig } from '../config/config.js';
import { openDatabase, type Database } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { runWorker } from './worker-command.js';

const dirs: string[] = [];
let h: Harness | undefined;
let database: Database | undefined;
afterEach(async () => {
  await h?.close();
  await database?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  h = database = undefined;
});

describe('chartwright worker without Redis', () => {
  it('writes the notes a service queued in the database it shares, and stops cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chartwright-worker-'));
    dirs.push(dir);
    const path = join(dir, 'chartwright.db');
    database = openDatabase({ kind: 'sqlite', path });
    await migrateToLatest(database);
    const base = testConfig();
    // The service only queues: the worker runs every job.
    const harness = (h = await createHarness({ database, config: { jobs: { ...base.jobs, inService: false } } }));
    // The worker runs on the system clock: the service's notes are dated by it too.
    harness.clock.advance(Date.now() - harness.clock.now());
    const queued = (
      await harness.request({
        method: 'POST',
        url: '/api/v1/notes',
        key: harness.project.testKey,
        payload: {
          template_id: 'soap',
          conversation_text: '[doctor] any cough ? [patient] yes , for a week .',
          async: true,
        },
      })
    ).json<NoteProgress>();

    const signals = new EventEmitter();
    const lines: string[] = [];
    const config = loadConfig({
      DATABASE_URL: path,
      LOG_LEVEL: 'silent',
      NOTES_WORKERS: '1',
      QUEUE_POLL_MS: '50',
      CONSOLE_SECRET_KEY: base.console.secretKey ?? '',
    });
    const stopped = runWorker(config, { out: (text) => lines.push(text) }, signals);

    const note = await vi.waitFor(
      async () => {
        const answer = (
          await harness.request({ method: 'GET', url: `/api/v1/notes/${queued.id}`, key: harness.project.testKey })
        ).json<NoteOrProgress>();
        if (answer.status !== 'ready') throw new Error(`note is ${answer.status}`);
        return answer;
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(note).toMatchObject({ id: queued.id, status: 'ready', template_id: 'soap' });
    expect(lines[0]).toMatch(/^chartwright worker: running note and webhook jobs from the database/);

    signals.emit('SIGTERM');
    await expect(stopped).resolves.toBe(0);
    expect(lines.at(-1)).toBe(
      'chartwright worker: stopped; notes ready 1, failed 0, retried 0, superseded 0; deliveries succeeded 0, failed 0, retried 0',
    );
  });
});
