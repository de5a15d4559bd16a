/**
 * A resume's two reads of the store: the session it names (if this socket's credential may continue
 * it), then, once the socket has claimed it, where it continues from. A string says why not.
 */
import { timingSafeEqual } from 'node:crypto';

import { segmentSeq, type AudioFormat, type ResumeRequest } from '@chartwright/protocol';

import type { CepstralMeans } from '../asr/recognizer.js';
import type { Principal } from '../auth/principal.js';
import { hashSecret } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import type { ResumePoint } from './session-machine/index.js';
import type { RealtimeStore } from './session-records.js';
import { planResume } from './resume-plan.js';
import { readSegments, resumeRefusal } from './stored-session.js';

/** `S3` → 3; 0 for no label. */
function voiceNumber(label: string | null): number {
  const number = label === null ? undefined : /^S(\d+)$/.exec(label)?.[1];
  return number === undefined ? 0 : Number(number);
}

function parsedList(stored: string | null): unknown[] {
  if (stored === null) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? (parsed as unknown[]) : [];
  } catch {
    return [];
  }
}

/**
 * The stored means, one per channel, each null unless it is a list of finite numbers (the engine
 * checks its length): a value that does not parse costs only the warm start.
 */
function storedCepstralMeans(stored: string | null, channels: number): CepstralMeans {
  const list = parsedList(stored);
  return Array.from({ length: channels }, (_, channel) => {
    const mean = list[channel];
    return Array.isArray(mean) && mean.length > 0 && mean.every((value) => Number.isFinite(value))
      ? (mean as number[])
      : null;
  });
}

/** The same words for an unknown session, another project's, and a wrong token: none says which. */
const REFUSED = 'No resumable session has this sessionId and resumeToken for this project and environment.';

function sameHash(left: string, right: string): boolean {
  const [a, b] = [Buffer.from(left, 'utf8'), Buffer.from(right, 'utf8')];
  return a.length === b.length && timingSafeEqual(a, b);
}

function sameFormat(stored: string, format: AudioFormat): boolean {
  const parsed = JSON.parse(stored) as Partial<AudioFormat>;
  return (
    parsed.encoding === format.encoding &&
    parsed.sampleRate === format.sampleRate &&
    parsed.channels === format.channels
  );
}

export class ResumeLookup {
  constructor(
    private readonly deps: {
      store: RealtimeStore;
      clock: Clock;
      maxSessionSeconds: number;
      /** Resolves once a socket of this instance that carried the session has stored its last segments. */
      settled: (sessionId: string) => Promise<void>;
    },
    private readonly principal: Principal,
  ) {}

  /** The id of the stored session `resume` names, when this principal may continue it. */
  async find(resume: ResumeRequest): Promise<{ sessionId: string } | string> {
    const tokenHash = hashSecret(resume.resumeToken);
    const found = await this.deps.store.sessions.get(resume.sessionId);
    const principal = this.principal;
    if (
      found?.project_id !== principal.projectId ||
      found.environment !== principal.environment ||
      !sameHash(found.resume_token_hash, tokenHash)
    ) {
      return REFUSED;
    }
    // A widget's token carries its encounter: it may continue only that encounter's sessions, and
    // nothing else (an sk_ key, a token it minted) may continue, and so replay, an encounter's.
    const encounterId = principal.kind === 'realtime_token' ? principal.encounterId : null;
    if (encounterId !== found.encounter_id) return REFUSED;
    return { sessionId: found.id };
  }

  /** Where the claimed session `sessionId` continues from. */
  async load(sessionId: string, resume: ResumeRequest, format: AudioFormat): Promise<ResumePoint | string> {
    // A socket of this instance that carried the session may still be storing its last segments.
    await this.deps.settled(sessionId);
    const { sessions, segments } = this.deps.store;
    const row = await sessions.get(sessionId);
    if (row === undefined) return 'The session no longer exists.';
    const refusal = resumeRefusal(row, this.deps.clock.now(), this.deps.maxSessionSeconds);
    if (refusal !== undefined) return refusal;
    if (!sameFormat(row.audio_format, format))
      return 'audio: a resumed session keeps the audio format it started with.';
    const rows = await segments.listAfter(sessionId);
    const storedLastSeq = rows.reduce((last, segment) => Math.max(last, segment.seq), 0);
    let afterSeq = 0;
    if (resume.lastSegmentId !== undefined) {
      const seq = segmentSeq(resume.lastSegmentId);
      if (seq === undefined || seq > storedLastSeq) {
        return `resume.lastSegmentId: ${resume.lastSegmentId} is not a segment of this session.`;
      }
      afterSeq = seq;
    }
    const plan = planResume(
      {
        segments: rows.map((segment) => ({
          seq: segment.seq,
          channel: segment.channel,
          startMs: segment.start_ms,
          endMs: segment.end_ms,
          provisional: segment.provisional === 1,
        })),
        transcribedMs: row.audio_ms,
        committedMs: row.committed_ms === null ? undefined : (JSON.parse(row.committed_ms) as number[]),
      },
      { lastAckedAudioMs: resume.lastAckedAudioMs, afterSeq },
      format.channels,
    );
    const replacedSeqs = new Set(
      plan.provisional === 'replace'
        ? rows.filter((segment) => segment.provisional === 1).map((segment) => segment.seq)
        : [],
    );
    return {
      resumeToken: resume.resumeToken,
      createdAt: row.created_at,
      // As every read presents them (display text, corrections, swapped roles), less a replaced provisional one.
      replay: (await readSegments(this.deps.store, sessionId, afterSeq)).segments.filter(
        (segment) => !replacedSeqs.has(segmentSeq(segment.id) ?? 0),
      ),
      lastSeq: plan.lastSeq,
      voicesBefore: rows.reduce((most, segment) => Math.max(most, voiceNumber(segment.speaker_label)), 0),
      decodeFromMs: plan.decodeFromMs,
      cepstralMeans: storedCepstralMeans(row.cepstral_means, format.channels),
      provisional: plan.provisional,
      lastAckedAudioMs: resume.lastAckedAudioMs,
    };
  }
}
