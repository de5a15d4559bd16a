/**
 * The realtime session as a state machine: what it knows in each state, the events that move it
 * and the commands it asks its adapters (socket, timers, recognizer, store) to carry out. Pure
 * data: the machine does no I/O, reads no clock and makes no ids; events bring the time.
 */
import type {
  AudioFormat,
  ClientMessageParse,
  RealtimeEndReason,
  RealtimeErrorCode,
  RealtimeServerEvent,
  ResumeRequest,
  StartMessage,
  TranscriptSegment,
} from '@chartwright/protocol';

import type {
  CepstralMeans,
  FinalEvent,
  RecognizerErrorCode,
  RecognizerStatus,
  RecognizerStream,
} from '../../asr/recognizer.js';
import type { Principal } from '../../auth/principal.js';
import type { RealtimeConfig } from '../../config/config.js';

/** What stays the same for the whole socket. */
export interface SessionMachineConfig {
  limits: Pick<RealtimeConfig, 'maxFrameBytes' | 'maxSessionSeconds' | 'idleTimeoutSeconds' | 'credentialCheckSeconds'>;
  /** The recognizer's languages (`'any'` when its server decides). */
  languages: readonly string[] | 'any';
  principal: Pick<Principal, 'projectId' | 'environment' | 'kind' | 'expiresAt'>;
}

/** The session's id and resume token: new for each socket until a resume claims a stored session's. */
export interface Identity {
  sessionId: string;
  resumeToken: string;
}

/** A client frame, read as far as the machine needs. */
export type Frame = { byteLength: number } & (
  | { kind: 'audio'; data: Uint8Array }
  | { kind: 'text'; parsed: ClientMessageParse }
  /** Over the frame limit: dropped unread. */
  | { kind: 'oversized' }
);

/**
 * What the store holds of the segments a lost socket stored and never sent (its open utterances,
 * decoded only up to the cut): `replace` when the client resends their audio, so they are deleted
 * and decoded again whole; `keep` when it cannot, so they stay as they are.
 */
export type ProvisionalSegments = 'replace' | 'keep';

/** What a resume continues from, as the store has it. */
export interface ResumePoint {
  resumeToken: string;
  /** When the session was first started (its length counts from there). */
  createdAt: number;
  /** Segments the client has not seen, in order. */
  replay: TranscriptSegment[];
  lastSeq: number;
  /** The highest voice label number among its stored one-channel segments (`S3` → 3; 0: none). */
  voicesBefore: number;
  /** Where the client's resent audio begins (the session clock continues from here). */
  lastAckedAudioMs: number;
  /** Per channel, where the resumed decode starts: resent audio before it is counted, not decoded. */
  decodeFromMs: number[];
  /** Per channel, the cepstral mean the session's recognizer had reached; a resumed stream starts from it. */
  cepstralMeans: CepstralMeans;
  provisional: ProvisionalSegments;
}

/** Where a `start` is on its way to `started`. */
export type StartStep =
  /** Looking up the stored session a resume names. */
  | { name: 'finding' }
  /** Claimed that session (its id is this socket's now) and reading where it stopped. */
  | { name: 'loading'; unclaimedId: string }
  | { name: 'checking'; resume: ResumePoint | undefined }
  | { name: 'opening'; resume: ResumePoint | undefined }
  | { name: 'storing'; resume: ResumePoint | undefined; streams: readonly RecognizerStream[]; openedAt: number };

/** What a started session knows of its audio and transcript; an ending keeps it. */
export interface Transcript {
  format: AudioFormat;
  /** Sample frames (per channel, at the client's rate) the session counted. */
  framesReceived: number;
  /** Segments numbered so far (the last one's seq). */
  segments: number;
  /**
   * Voices the session had before its recognizer streams opened (a resume's stored `S1`…`Sn`): a
   * resumed stream tells voices apart afresh, so its `S1` is numbered on as `S(n+1)` and never
   * joins another person's label.
   */
  voicesBefore: number;
  /** Per channel, where its last final ended: a partial starts there. */
  lastFinalEndMs: number[];
  /** Per channel, session time of the first sample its recognizer stream was given. */
  streamOffsetMs: number[];
  /**
   * Per channel, how far its audio is committed (session time): every word before it is in a final
   * handed to the store, and no utterance still to come began before it. `ack` says the lowest.
   */
  committedMs: number[];
  /** Per channel, the cepstral mean the last final reported (kept for a resume). */
  cepstralMeans: CepstralMeans;
  /**
   * Finals handed to the store and not yet stored: their audio is not acknowledged before it is,
   * so a final lost to a failed write is decoded again on a resume.
   */
  unstored: readonly { seq: number; channel: number; startMs: number }[];
  /** Audio known to be transcribed to the end, stored as the session's `audio_ms`. */
  transcribedMs: number;
  /** A segment could not be stored: nothing later is, and the transcribed audio stays where it was. */
  storageFailed: boolean;
}

export interface Streaming extends Transcript {
  interimResults: boolean;
  paused: boolean;
  /** `ACK_INTERVAL_MS` steps of audio received so far: an `ack` is due at each new one. */
  acked: number;
  /** The position the last `ack` sent (or the resume continued from). */
  ackedMs: number;
  /** Per channel, audio up to here (frames) was transcribed before a resume: its resent copy is counted, not decoded. */
  skipUntilFrames: number[];
  /**
   * A misaligned frame was answered with `misaligned_audio` and no aligned one has come since: the
   * rest of the burst is dropped silently, so a client sending bad frames gets one error, not one each.
   */
  misalignedReported: boolean;
}

/**
 * How a started session ends. `finish` sends `ended` once its last finals are stored, then closes;
 * `shutdown` sent `ended` and closed at once and stores them after; `interrupted` lost its socket
 * and stores them for a resume.
 */
export type EndingPath =
  { path: 'finish'; reason: RealtimeEndReason; closeCode: number } | { path: 'shutdown' } | { path: 'interrupted' };

export type EndingPhase =
  /** The recognizer streams are ending: their last finals are on their way. */
  | 'flushing'
  /** The finals are being stored (and sent, while the socket is open). */
  | 'draining'
  /** The session's own record is being stored; recognizer events are ignored from here. */
  | 'recording';

export type SessionState =
  | { kind: 'awaiting_start'; identity: Identity }
  | {
      kind: 'starting';
      identity: Identity;
      start: StartMessage;
      step: StartStep;
      /** Frames that arrived meanwhile, answered in order once the start is settled. */
      held: readonly Frame[];
      heldBytes: number;
      /**
       * Idle timeouts that fired while the service was still starting the session: the client
       * waits for `started`, so they are the service's slowness, not the client's silence.
       */
      slowStartWaits: number;
    }
  | { kind: 'streaming'; identity: Identity; streaming: Streaming }
  | {
      kind: 'ending';
      identity: Identity;
      transcript: Transcript;
      ending: EndingPath;
      phase: EndingPhase;
      flushed: boolean;
    }
  /** Over: nothing more is sent or stored. */
  | { kind: 'closed'; identity: Identity };

export type TimerName = Timer['name'];
export type Timer =
  | { name: 'idle' }
  | { name: 'session_warning'; remainingMs: number }
  | { name: 'session_limit' }
  | { name: 'credential_check' }
  | { name: 'credential_warning'; remainingMs: number }
  | { name: 'credential_expiry' }
  | { name: 'flush' };

export type SessionEvent =
  | { type: 'frame'; frame: Frame }
  /** The stored session a resume names, authorized; `heldElsewhere` when another socket here carries it. */
  | { type: 'resume_found'; sessionId: string; heldElsewhere: boolean }
  | { type: 'resume_refused'; message: string }
  | { type: 'resume_loaded'; point: ResumePoint }
  | { type: 'recognizer_checked'; status: RecognizerStatus; at: number }
  | { type: 'streams_opened'; streams: readonly RecognizerStream[]; at: number }
  | { type: 'streams_failed'; code: RecognizerErrorCode; message: string }
  | { type: 'session_stored'; at: number }
  /** An adapter's step failed unexpectedly. */
  | { type: 'failed'; error: unknown }
  | { type: 'recognizer_partial'; channel: number; text: string }
  | { type: 'recognizer_final'; channel: number; final: FinalEvent }
  | { type: 'recognizer_committed'; channel: number; ms: number }
  /** A final handed over by `store_final` is stored (and sent). */
  | { type: 'final_stored'; seq: number }
  | { type: 'recognizer_error'; code: RecognizerErrorCode; message: string }
  | { type: 'timer'; timer: Timer }
  | { type: 'credential_revoked' }
  | { type: 'storage_failed' }
  | { type: 'flushed' }
  | { type: 'drained' }
  | { type: 'recorded' }
  | { type: 'socket_closed' }
  | { type: 'shutdown' };

export type SessionCommand =
  | { type: 'send'; event: RealtimeServerEvent }
  | { type: 'close'; code: number; reason: string }
  /** Replaces a scheduled timer of the same name; `repeat` fires it every `ms` until cleared. */
  | { type: 'schedule'; timer: Timer; ms: number; repeat?: true }
  | { type: 'clear_timer'; name: TimerName }
  | { type: 'clear_timers' }
  | { type: 'find_resume'; resume: ResumeRequest }
  | { type: 'load_resume'; sessionId: string; resume: ResumeRequest; format: AudioFormat }
  | { type: 'check_recognizer' }
  /** `cepstralMeans`: where each channel's stream starts (a resume's), empty for a new session. */
  | { type: 'open_streams'; start: StartMessage; cepstralMeans: CepstralMeans }
  /** Ends streams the session will not use; nothing waits for them. */
  | { type: 'end_streams'; streams: readonly RecognizerStream[] }
  /** A resume's `provisional` says what becomes of the segments its lost socket stored unsent. */
  | {
      type: 'store_session';
      identity: Identity;
      start: StartMessage;
      resumed: { provisional: ProvisionalSegments } | undefined;
      at: number;
    }
  /** The session's streams from here on: their events come back as recognizer_* events. */
  | { type: 'attach_streams'; streams: readonly RecognizerStream[] }
  /** Whole sample frames in `format`, for the attached streams; each channel skips its first `skip[channel]` frames. */
  | { type: 'write_audio'; format: AudioFormat; data: Uint8Array; skip: readonly number[] }
  | { type: 'finalize_streams' }
  /** Ends the attached streams; `flushed` once their last events were emitted. */
  | { type: 'flush_streams' }
  /**
   * Stores the segment, then sends it: `storage_failed` instead when it cannot be stored. A
   * provisional one is stored after the socket was lost, never sent, and a resume may replace it.
   * `cepstralMeans`: the session's after this final, stored with it.
   */
  | {
      type: 'store_final';
      sessionId: string;
      seq: number;
      segment: TranscriptSegment;
      provisional: boolean;
      cepstralMeans: CepstralMeans;
    }
  /** `drained` once every final handed over so far is stored (and sent). */
  | { type: 'drain_finals' }
  | {
      type: 'record_end';
      sessionId: string;
      reason: RealtimeEndReason;
      transcribedMs: number;
      committedMs: readonly number[];
      cepstralMeans: CepstralMeans;
    }
  | {
      type: 'record_interruption';
      sessionId: string;
      transcribedMs: number;
      committedMs: readonly number[];
      cepstralMeans: CepstralMeans;
    }
  /** Checks the credential again; `credential_revoked` when it no longer authenticates. */
  | { type: 'revalidate' }
  | { type: 'log'; level: 'info' | 'error'; message: string; fields: Record<string, unknown> }
  /** Everything the session will store is stored. */
  | { type: 'settled' };

export interface Transition {
  state: SessionState;
  commands: SessionCommand[];
}

/** A fatal error: the code, its words, and (from the protocol's table) how the session ends. */
export interface FatalError {
  code: RealtimeErrorCode;
  message: string;
}
