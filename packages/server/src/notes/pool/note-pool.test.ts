import { getPriority } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';

import { createNoteRequestSchema, type CreateNoteRequest, type ErrorBody, type Note } from '@chartwright/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';

import { createHarness, type Harness } from '@chartwright/testing/harness.js';
import { sampleValue } from '@chartwright/testing/metrics.js';
import { openWidget, widgetCall } from '@chartwright/testing/widget-encounters.js';

import { testConfig } from '../../config/config.js';
import { AppError } from '../../errors.js';
import { Metrics } from '../../metrics/metrics.js';
import { noteProducer } from '../engines/select.js';
import { writerOf, type NoteJob } from '../note-service.js';
import { renderNote } from '../render.js';
import { findCuratedTemplate } from '../templates.js';
import { NotePool, notePoolFor } from './note-pool.js';

// Synthetic visits, written for these tests.
const COUGH = [
  '[doctor] good morning , what brings you in today ?',
  '[patient] i have had a cough for about two weeks and some shortness of breath when i climb stairs .',
  '[doctor] any fever or chest pain ?',
  '[patient] no fever . no chest pain .',
  '[doctor] are you taking anything for it ?',
  '[patient] just some cough syrup . i am allergic to penicillin .',
  '[doctor] your lungs have some mild wheezing on the right .',
  '[doctor] i think this is acute bronchitis . let us start an albuterol inhaler and follow up in two weeks .',
].join('\n');

const KNEE = [
  'Doctor: What happened to the knee?',
  'Patient: I twisted it playing soccer on Saturday. It swelled up right away.',
  'Doctor: Can you put weight on it?',
  'Patient: A little, but it hurts. I have been taking ibuprofen 400 milligrams three times a day.',
  'Doctor: There is an effusion and tenderness along the medial joint line. Lachman is negative.',
  'Doctor: Likely a medial meniscus strain. Ice, a knee brace, and an MRI if it is not better in two weeks.',
].join('\n');

const FIXTURES: Record<string, CreateNoteRequest> = {
  'text in [doctor]/[patient] tags, SOAP': { template_id: 'soap', conversation_text: COUGH },
  'prefixed text with context, concise H&P': {
    template_id: 'history_and_physical',
    conversation_text: KNEE,
    style: 'concise',
    patient: { name: 'Alex Example', dob: '1980-02-03', gender: 'female' },
    context: {
      allergies: [{ name: 'sulfa drugs', reaction: 'rash' }],
      medications: [{ name: 'lisinopril', dosage: '10 mg', frequency: 'daily' }],
    },
    extra_context: 'Plays in a weekend league.',
  },
  'realtime segments': {
    template_id: 'soap',
    segments: COUGH.split('\n').map((line, index) => ({
      text: line.replace(/^\[\w+\] /, ''),
      speaker: line.startsWith('[doctor]') ? 'clinician' : 'patient',
      startMs: index * 4000,
      endMs: index * 4000 + 3500,
    })),
  },
};

function jobOf(body: CreateNoteRequest): NoteJob {
  const {
    template_id: templateId,
    include: _include,
    sections: _sections,
    ...rest
  } = createNoteRequestSchema.parse(body);
  const template = findCuratedTemplate(templateId);
  if (template === undefined) throw new Error(`no template ${templateId}`);
  return { ...rest, template };
}

/** A visit long enough that writing its note takes a while (a few hundred milliseconds). */
const LONG_VISIT = Array.from({ length: 60 }, () => COUGH).join('\n');

const pools: NotePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function pool(options: { workers?: number; queueLimit?: number; metrics?: Metrics } = {}): NotePool {
  const notes = { ...testConfig().notes, workers: options.workers ?? 1, queueLimit: options.queueLimit ?? 8 };
  const made = notePoolFor(notes, { info: () => undefined, warn: () => undefined }, options.metrics ?? new Metrics());
  pools.push(made);
  return made;
}

/** The nice value of each thread of a process (Linux), from /proc/<pid>/task/<tid>/stat. */
function threadNiceness(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, nice field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[16]);
  });
}

describe('NotePool', () => {
  it.each(Object.entries(FIXTURES))('writes the same note as a direct call: %s', async (_name, body) => {
    const direct = await writerOf(noteProducer(testConfig(), { info: () => undefined, warn: () => undefined }))(
      jobOf(body),
    );
    const pooled = await pool().write(jobOf(body));
    expect(pooled).toStrictEqual(direct);
    expect(JSON.stringify(pooled)).toBe(JSON.stringify(direct));
    expect(renderNote(pooled.note.sections)).toBe(renderNote(direct.note.sections));
    expect(renderNote(pooled.note.sections)).not.toBe('');
  });

  it('runs its workers below the priority of the service (and so of the recognizer workers it forks)', async () => {
    const notes = pool();
    await notes.warmUp();
    const [pid] = notes.pids();
    expect(pid).toBeDefined();
    const expected = Math.min(19, getPriority() + 19);
    expect(getPriority(pid)).toBe(expected);
    if (process.platform === 'linux') {
      const threads = threadNiceness(pid ?? 0);
      expect(threads.length).toBeGreaterThan(1);
      expect(new Set(threads)).toEqual(new Set([expected]));
    }
  });

  // Started with them on the command line, so they hold from the worker's first allocation.
  it("runs its workers under the service's V8 settings (pretenuring off: docs/performance.md)", async () => {
    const notes = pool();
    await notes.warmUp();
    const [pid] = notes.pids();
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain('--no-allocation-site-pretenuring');
  });

  it('refuses a note over the queue bound with notes_overloaded and a Retry-After', async () => {
    const notes = pool({ workers: 1, queueLimit: 1 });
    const job = jobOf({ template_id: 'soap', conversation_text: LONG_VISIT });
    const first = notes.write(job);
    const second = notes.write(job);
    const third = notes.write(job);
    const refusal = await third.then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'notes_overloaded', status: 503 });
    expect(Number((refusal as AppError).headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // What was admitted is written.
    await expect(first).resolves.toMatchObject({ engine: { name: 'extractive' } });
    await expect(second).resolves.toMatchObject({ engine: { name: 'extractive' } });
  });

  it('writes different projects’ notes in turn, and keeps half the queue from any one project', async () => {
    const notes = pool({ workers: 1, queueLimit: 6 });
    await notes.warmUp();
    const long = jobOf({ template_id: 'soap', conversation_text: LONG_VISIT });
    const short = jobOf(FIXTURES['text in [doctor]/[patient] tags, SOAP'] ?? { template_id: 'soap' });
    const finished: string[] = [];
    const write = (tenant: string, name: string, job: NoteJob) =>
      notes.write(job, { tenant }).then(() => {
        finished.push(name);
      });
    // One project posts note after note: one is written, three wait (half of the queue's six places)...
    const busy = ['a1', 'a2', 'a3', 'a4'].map((name) => write('proj_a/test', name, long));
    await expect(notes.write(long, { tenant: 'proj_a/test' })).rejects.toMatchObject({
      code: 'notes_overloaded',
      status: 503,
    });
    // ...and another project's note is still taken, and written next, not after the three.
    const other = write('proj_b/live', 'b1', short);
    await Promise.all([...busy, other]);
    expect(finished).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
  });

  it('fails the note of a killed worker with note_worker_crashed, replaces the worker and carries on', async () => {
    const notes = pool({ workers: 1 });
    await notes.warmUp();
    const [first] = notes.pids();
    const writing = notes.write(jobOf({ template_id: 'soap', conversation_text: LONG_VISIT }));
    const waiting = notes.write(jobOf(FIXTURES['text in [doctor]/[patient] tags, SOAP'] ?? { template_id: 'soap' }));
    process.kill(first ?? 0, 'SIGKILL');
    await expect(writing).rejects.toMatchObject({ code: 'note_worker_crashed', status: 500 });
    // The note queued behind it is written by the replacement.
    await expect(waiting).resolves.toMatchObject({ engine: { name: 'extractive' } });
    const [second] = notes.pids();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });

  it('drops a queued note whose caller went away', async () => {
    const notes = pool({ workers: 1 });
    const job = jobOf({ template_id: 'soap', conversation_text: LONG_VISIT });
    const first = notes.write(job);
    const controller = new AbortController();
    const second = notes.write(job, { signal: controller.signal });
    controller.abort(new Error('gone'));
    await expect(second).rejects.toThrow('gone');
    await expect(first).resolves.toMatchObject({ engine: { name: 'extractive' } });
  });

  it('counts each note by how it ended, and its queue and workers as they are now', async () => {
    const metrics = new Metrics();
    const notes = pool({ workers: 1, queueLimit: 1, metrics });
    await notes.warmUp();
    const job = jobOf({ template_id: 'soap', conversation_text: LONG_VISIT });
    const writing = notes.write(job);
    const controller = new AbortController();
    const waiting = notes.write(job, { signal: controller.signal });
    await expect(notes.write(job)).rejects.toMatchObject({ code: 'notes_overloaded' });
    const busy = await metrics.render();
    expect(sampleValue(busy, 'chartwright_note_pool_jobs', { state: 'writing' })).toBe(1);
    expect(sampleValue(busy, 'chartwright_note_pool_jobs', { state: 'queued' })).toBe(1);
    expect(sampleValue(busy, 'chartwright_note_pool_workers', { state: 'busy' })).toBe(1);
    expect(sampleValue(busy, 'chartwright_note_pool_workers', { state: 'idle' })).toBe(0);

    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    await writing;
    const crashing = notes.write(job);
    process.kill(notes.pids()[0] ?? 0, 'SIGKILL');
    await expect(crashing).rejects.toMatchObject({ code: 'note_worker_crashed' });
    await notes.close();
    await expect(notes.write(job)).rejects.toMatchObject({ code: 'service_unavailable' });

    const ended = await metrics.render();
    const outcomes = { completed: 1, failed: 0, worker_crashed: 1, abandoned: 1, shut_down: 1, refused: 1 };
    for (const [outcome, count] of Object.entries(outcomes)) {
      expect(sampleValue(ended, 'chartwright_note_jobs_finished_total', { outcome }), outcome).toBe(count);
    }
    // The abandoned note never reached a worker; the crashed one did.
    expect(sampleValue(ended, 'chartwright_note_jobs_started_total')).toBe(2);
    expect(sampleValue(ended, 'chartwright_note_job_duration_seconds_count')).toBe(1);
  });

  it('refuses notes once closed, and stops its workers', async () => {
    const notes = pool();
    await notes.warmUp();
    const [pid] = notes.pids();
    await notes.close();
    expect(() => process.kill(pid ?? 0, 0)).toThrow();
    await expect(notes.write(jobOf({ template_id: 'soap', conversation_text: COUGH }))).rejects.toMatchObject({
      code: 'service_unavailable',
    });
  });
});

describe('POST /api/v1/notes through the note workers', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  /**
   * Two notes sent at once to one worker with no queue: whichever reaches the pool first is written
   * and the other refused (which one depends on the machine's load); returns the refusal.
   */
  function oneWrittenOneRefused(answers: LightMyRequestResponse[]): LightMyRequestResponse {
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 503]);
    const refused = answers.find((answer) => answer.statusCode === 503);
    if (refused === undefined) throw new Error('no refusal');
    return refused;
  }

  const post = (conversation: string) =>
    h.request({
      method: 'POST',
      url: '/api/v1/notes',
      key: h.project.testKey,
      payload: { template_id: 'soap', conversation_text: conversation },
    });

  it('answers 503 notes_overloaded with Retry-After when the queue is full', async () => {
    h = await createHarness({ config: { notes: { ...testConfig().notes, workers: 1, queueLimit: 0 } } });
    const refused = oneWrittenOneRefused(await Promise.all([post(LONG_VISIT), post(COUGH)]));
    expect(refused.json<ErrorBody>().error).toMatchObject({ code: 'notes_overloaded', type: 'overloaded_error' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('answers the widget 503 notes_overloaded with Retry-After in its envelope when the queue is full', async () => {
    h = await createHarness({ config: { notes: { ...testConfig().notes, workers: 1, queueLimit: 0 } } });
    const partner = await h.createPartner();
    const widget = await openWidget(h, partner.partnerKey, { emrSessionId: 'visit-busy' });
    const url = `/api/widget/encounters/${widget.sessionId}/notes`;
    const refused = oneWrittenOneRefused(
      await Promise.all([
        widgetCall(h, widget.token, 'POST', url, { conversationText: LONG_VISIT }),
        widgetCall(h, widget.token, 'POST', url, { conversationText: COUGH }),
      ]),
    );
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('notes_overloaded');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('answers 500 note_worker_crashed when the worker is killed, and writes the next note', async () => {
    h = await createHarness({ config: { notes: { ...testConfig().notes, workers: 1 } } });
    await h.app.notePool.warmUp();
    const [pid] = h.app.notePool.pids();
    const crashed = post(LONG_VISIT);
    // The request reaches the worker after authentication and validation: kill it once it holds the job.
    while (h.app.notePool.load().writing === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    process.kill(pid ?? 0, 'SIGKILL');
    const response = await crashed;
    expect(response.statusCode).toBe(500);
    expect(response.json<ErrorBody>().error.code).toBe('note_worker_crashed');
    const next = await post(COUGH);
    expect(next.statusCode).toBe(201);
    expect(next.json<Note>().note).toContain('bronchitis');
    expect(h.app.notePool.pids()).not.toContain(pid);
  });
});

describe('the note workers and the app', () => {
  it('stop when the app closes', async () => {
    const h = await createHarness();
    await h.app.notePool.warmUp();
    const pids = h.app.notePool.pids();
    expect(pids.length).toBeGreaterThan(0);
    await h.close();
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
