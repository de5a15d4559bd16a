import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { verifyWebhook, type WebhookEvent } from '@chartwright/client';
import type { NoteProgress } from '@chartwright/protocol';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { testConfig } from '../config/config.js';
import { createLogger } from '../logger.js';
import {
  openTestDatabase,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  type TestDatabase,
} from '@chartwright/testing/databases.js';
import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import {
  selfSignedCertificate,
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '@chartwright/testing/webhook-receiver.js';
import { RedisJobQueue } from './redis-job-queue.js';

// The built CLI, exactly what an operator runs (the test command builds before testing).
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const NOTES = 200;
const SYMPTOMS = ['a cough', 'a sore throat', 'a headache', 'back pain', 'a rash'];

/** A short synthetic visit, different for each note. */
const visit = (index: number) =>
  `[doctor] what brings you in ? [patient] i have had ${SYMPTOMS[index % SYMPTOMS.length]} for ${(index % 9) + 2} days . [doctor] let us treat it and see you in a week .`;

interface WorkerProcess {
  child: ChildProcess;
  stdout(): string;
  exited: Promise<number | null>;
}

function startWorker(cwd: string, env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, [CLI, 'worker'], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, exited };
}

/** The counts a worker printed when it stopped (`notes ready 97, …; deliveries succeeded 190, …`). */
function outcomesOf(stdout: string): Record<string, number> {
  const line = /stopped; (.*)$/m.exec(stdout)?.[1] ?? '';
  const counts: Record<string, number> = {};
  for (const [, part, entries] of line.matchAll(/(notes|deliveries) ([^;]*)/g)) {
    for (const entry of (entries ?? '').split(', ')) {
      const [name, count] = entry.split(' ');
      counts[`${part}.${name}`] = Number(count);
    }
  }
  return counts;
}

describe.skipIf(TEST_DATABASE_URL === undefined || TEST_REDIS_URL === undefined)(
  'asynchronous notes on Redis with two `chartwright worker` processes on PostgreSQL',
  () => {
    const prefix = `cw-test-${randomBytes(4).toString('hex')}`;
    const redisUrl = TEST_REDIS_URL ?? '';
    const cwd = mkdtempSync(join(tmpdir(), 'chartwright-workers-'));
    const certificate = selfSignedCertificate();
    let database: TestDatabase;
    let h: Harness;
    let receiver: WebhookReceiver;
    let workers: WorkerProcess[] = [];

    beforeAll(async () => {
      database = await openTestDatabase('postgres');
      const base = testConfig();
      h = await createHarness({
        database: database.database,
        config: { redisUrl, jobs: { ...base.jobs, inService: false, queuePrefix: prefix } },
      });
      // The workers run on the system clock: the service's notes must be dated by it too.
      h.clock.advance(Date.now() - h.clock.now());
      // The one flaky receiver answers its first delivery 500, then 204.
      receiver = await startWebhookReceiver({
        tls: certificate,
        status: (path, earlier) => (path === '/flaky' && earlier === 0 ? 500 : 204),
      });
      const url = new URL(TEST_DATABASE_URL ?? '');
      url.searchParams.set('options', `-c search_path=${database.schema ?? ''}`);
      const env = {
        DATABASE_URL: url.toString(),
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: prefix,
        // As every instance shares it: the secret webhook secrets are sealed under.
        CONSOLE_SECRET_KEY: h.config.console.secretKey ?? '',
        NOTES_WORKERS: '1',
        WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1/32',
        WEBHOOK_RETRY_BASE_MS: '200',
        // The receiver's certificate, trusted as an operator trusts a private CA.
        NODE_EXTRA_CA_CERTS: certificate.certPath,
      };
      workers = [startWorker(cwd, env), startWorker(cwd, env)];
      for (const worker of workers) {
        await vi.waitFor(() => expect(worker.stdout()).toContain('chartwright worker: running'), {
          timeout: 60_000,
          interval: 50,
        });
      }
    }, 120_000);

    afterAll(async () => {
      for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
      await h.close();
      await receiver.close();
      await database.dispose();
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
      certificate.dispose();
      rmSync(cwd, { recursive: true, force: true });
    });

    it('writes each of 200 notes once, delivers each event once per receiver, signed, retrying the one that failed', async () => {
      const scope = { projectId: h.project.id, environment: 'test' } as const;
      const post = async (path: string, payload?: object): Promise<unknown> =>
        (await h.request({ method: 'POST', url: path, key: h.project.testKey, ...(payload && { payload }) })).json();
      const callbackSecret = ((await post('/api/v1/webhooks/callback-secret')) as { secret: string }).secret;
      const flaky = (await post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/flaky` })) as {
        secret: string;
      };

      const ids: string[] = [];
      for (let index = 0; index < NOTES; index += 1) {
        const queued = (await post('/api/v1/notes', {
          template_id: 'soap',
          conversation_text: visit(index),
          async: true,
          callback_url: `${receiver.url}/callback`,
        })) as NoteProgress;
        expect(queued.status).toBe('queued');
        ids.push(queued.id);
      }
      // The queue may run a job twice: make it so for one note, while the notes are being written.
      const queue = new RedisJobQueue({ url: redisUrl, prefix, logger: createLogger('silent') });
      await queue.add('note', ids[0] ?? '', { run: 99 });

      const received = (path: string) => receiver.received.filter((entry) => entry.path === path);
      const succeeded = (entries: ReceivedWebhook[]) => entries.filter((entry) => entry.status < 300);
      await vi.waitFor(
        () => {
          expect(succeeded(received('/callback'))).toHaveLength(NOTES);
          expect(succeeded(received('/flaky'))).toHaveLength(NOTES);
        },
        { timeout: 180_000, interval: 100 },
      );
      // Every note is written, once.
      const notes = await Promise.all(ids.map((id) => h.repositories.notes.getScoped(id, scope, h.clock.now())));
      expect(notes.map((note) => note?.status)).toEqual(ids.map(() => 'ready'));

      // And every one of the 2 × 200 events verifies, under its receiver's secret.
      const events = async (entries: ReceivedWebhook[], secret: string): Promise<WebhookEvent[]> =>
        Promise.all(entries.map((entry) => verifyWebhook(entry.body, entry.headers as Record<string, string>, secret)));
      const toCallback = await events(succeeded(received('/callback')), callbackSecret);
      const toFlaky = await events(succeeded(received('/flaky')), flaky.secret);
      for (const delivered of [toCallback, toFlaky]) {
        expect(new Set(delivered.map((event) => event.data.note.id))).toEqual(new Set(ids));
        expect(delivered.every((event) => event.type === 'note.ready')).toBe(true);
      }
      // The failed delivery was the only one tried again: the same event, after the 500.
      const [refused, ...rest] = received('/flaky');
      expect(refused?.status).toBe(500);
      expect(rest.filter((entry) => entry.body === refused?.body)).toHaveLength(1);
      expect(received('/flaky')).toHaveLength(NOTES + 1);
      expect(received('/callback')).toHaveLength(NOTES);

      // A delivery job run again after it succeeded sends nothing.
      const [{ delivery } = { delivery: undefined }] = await h.repositories.webhookDeliveries.list({
        ...scope,
        noteId: ids[0] ?? '',
        limit: 1,
      });
      await queue.add('delivery', delivery?.id ?? '', { run: 99 });
      await vi.waitFor(
        async () => {
          const depth = await queue.depth();
          expect(depth.delivery).toEqual({ waiting: 0, active: 0 });
          expect(depth.note).toEqual({ waiting: 0, active: 0 });
        },
        { timeout: 30_000, interval: 100 },
      );
      await queue.close(5_000);
      expect(receiver.received).toHaveLength(2 * NOTES + 1);

      // Both workers took part; between them, each note was stored once.
      for (const worker of workers) worker.child.kill('SIGTERM');
      expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0]);
      const [first, second] = workers.map((worker) => outcomesOf(worker.stdout()));
      expect(first?.['notes.ready']).toBeGreaterThan(0);
      expect(second?.['notes.ready']).toBeGreaterThan(0);
      expect((first?.['notes.ready'] ?? 0) + (second?.['notes.ready'] ?? 0)).toBe(NOTES);
      expect((first?.['notes.failed'] ?? 0) + (second?.['notes.failed'] ?? 0)).toBe(0);
      expect((first?.['deliveries.succeeded'] ?? 0) + (second?.['deliveries.succeeded'] ?? 0)).toBe(2 * NOTES);
      expect((first?.['deliveries.retried'] ?? 0) + (second?.['deliveries.retried'] ?? 0)).toBe(1);
    }, 300_000);
  },
);
