/** The moment a session starts (or a resume continues one): `started`, the replay, and its limits. */
import type { StartMessage } from '@chartwright/protocol';

import { ACK_INTERVAL_MS, MAX_TIMER_MS, to, WARNING_LEAD_MS } from './common.js';
import type {
  ResumePoint,
  SessionCommand,
  SessionMachineConfig,
  SessionState,
  StartStep,
  Streaming,
  Timer,
  Transition,
} from './types.js';

/** The keepalive interval clients are told: a third of the idle timeout. */
function keepaliveIntervalSeconds(idleTimeoutSeconds: number): number {
  return Math.max(1, Math.floor(idleTimeoutSeconds / 3));
}

/**
 * A fresh session's clock starts at 0. A resumed one continues its numbering, and its clock from
 * where the client's resent audio begins; each channel's recognizer decodes from where the resume
 * point says (the start of its open utterance when the socket was lost), and the resent audio
 * before that is counted but not decoded twice.
 */
function streamingOf(start: StartMessage, resume: ResumePoint | undefined, channels: number): Streaming {
  const format = start.audio;
  const framesAt = (ms: number) => Math.round((ms * format.sampleRate) / 1000);
  const decodeFromMs = resume?.decodeFromMs ?? Array.from({ length: channels }, () => 0);
  const receivedMs = resume?.lastAckedAudioMs ?? 0;
  return {
    format,
    interimResults: start.interimResults,
    paused: false,
    storageFailed: false,
    framesReceived: framesAt(receivedMs),
    segments: resume?.lastSeq ?? 0,
    voicesBefore: resume?.voicesBefore ?? 0,
    lastFinalEndMs: [...decodeFromMs],
    streamOffsetMs: [...decodeFromMs],
    committedMs: [...decodeFromMs],
    cepstralMeans: resume?.cepstralMeans ?? [],
    unstored: [],
    transcribedMs: Math.min(...decodeFromMs),
    acked: Math.floor(receivedMs / ACK_INTERVAL_MS),
    ackedMs: receivedMs,
    skipUntilFrames: decodeFromMs.map(framesAt),
    misalignedReported: false,
  };
}

function after(timer: Timer, ms: number): SessionCommand[] {
  return ms > MAX_TIMER_MS ? [] : [{ type: 'schedule', timer, ms }];
}

/** The session's length counts from its first start, across resumes; the credential's from `now`. */
function limitTimers(config: SessionMachineConfig, elapsedMs: number, now: number): SessionCommand[] {
  const { limits, principal } = config;
  const maxMs = limits.maxSessionSeconds * 1000;
  const sessionMs = maxMs - elapsedMs;
  const sessionLead = Math.min(WARNING_LEAD_MS, maxMs / 5, sessionMs);
  const timers = [
    ...after({ name: 'session_warning', remainingMs: sessionLead }, sessionMs - sessionLead),
    ...after({ name: 'session_limit' }, sessionMs),
    {
      type: 'schedule',
      timer: { name: 'credential_check' },
      ms: limits.credentialCheckSeconds * 1000,
      repeat: true,
    } as const,
  ];
  if (principal.expiresAt === null) return timers;
  const remaining = principal.expiresAt - now;
  if (remaining > MAX_TIMER_MS) return timers;
  return [
    ...timers,
    ...after(
      { name: 'credential_warning', remainingMs: Math.min(WARNING_LEAD_MS, remaining) },
      Math.max(0, remaining - WARNING_LEAD_MS),
    ),
    ...after({ name: 'credential_expiry' }, remaining),
  ];
}

function startedLog(
  config: SessionMachineConfig,
  sessionId: string,
  start: StartMessage,
  resume: ResumePoint | undefined,
): SessionCommand {
  const { principal } = config;
  return {
    type: 'log',
    level: 'info',
    message: resume === undefined ? 'realtime session started' : 'realtime session resumed',
    fields: {
      sessionId,
      projectId: principal.projectId,
      environment: principal.environment,
      credential: principal.kind,
      channels: start.audio.channels,
      sampleRate: start.audio.sampleRate,
      encoding: start.audio.encoding,
      ...(resume === undefined
        ? {}
        : {
            resumed: true,
            lastAckedAudioMs: resume.lastAckedAudioMs,
            decodeFromMs: resume.decodeFromMs,
            provisional: resume.provisional,
            replayed: resume.replay.length,
            lastSeq: resume.lastSeq,
          }),
    },
  };
}

/**
 * The session is stored: it streams from here. `started` goes first, then the segments a resume
 * missed (stored already, so sent as they are), before anything new.
 */
export function started(
  config: SessionMachineConfig,
  state: Extract<SessionState, { kind: 'starting' }>,
  storing: Extract<StartStep, { name: 'storing' }>,
  now: number,
): Transition {
  const { identity, start } = state;
  const { resume, streams } = storing;
  const { limits, principal } = config;
  const expiresAt = principal.expiresAt;
  const elapsedMs = resume === undefined ? 0 : Math.max(0, storing.openedAt - resume.createdAt);
  return to(
    { kind: 'streaming', identity, streaming: streamingOf(start, resume, streams.length) },
    { type: 'attach_streams', streams },
    {
      type: 'send',
      event: {
        type: 'started',
        sessionId: identity.sessionId,
        resumeToken: identity.resumeToken,
        resumed: resume !== undefined,
        credentialExpiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
        audio: start.audio,
        limits: {
          maxSessionSeconds: limits.maxSessionSeconds,
          idleTimeoutSeconds: limits.idleTimeoutSeconds,
          keepaliveIntervalSeconds: keepaliveIntervalSeconds(limits.idleTimeoutSeconds),
          maxFrameBytes: limits.maxFrameBytes,
        },
      },
    },
    ...(resume?.replay ?? []).map((segment): SessionCommand => ({ type: 'send', event: { type: 'final', segment } })),
    startedLog(config, identity.sessionId, start, resume),
    ...limitTimers(config, elapsedMs, now),
  );
}
