import type { RealtimeServerEvent, TranscriptSegment } from '@chartwright/protocol';
import type { FastifyBaseLogger } from 'fastify';

import type { CepstralMeans } from '../asr/recognizer.js';
import type { Clock } from '../clock.js';
import type { TranscriptSegmentsRepository } from '../store/realtime-sessions.js';
import type { TranscriptCorrectionsRepository } from '../store/transcript-corrections.js';
import { correctedSegment } from './segment-view.js';

/**
 * Durability: a final is sent only once it is stored. Finals are stored, then sent, one after
 * another in the order the recognizer produced them; after one could not be stored, nothing more
 * is stored or sent (the client resumes from the last one it got). Transcripts are stored, never logged.
 * A final is stored as recognised and sent as every read presents it: with the roles the clinician
 * swapped for its speaker label earlier in the session.
 */
export class TranscriptPipeline {
  #chain: Promise<void> = Promise.resolve();
  #failed = false;

  constructor(
    private readonly deps: {
      segments: TranscriptSegmentsRepository;
      corrections: TranscriptCorrectionsRepository;
      clock: Clock;
      logger: FastifyBaseLogger;
      send: (event: RealtimeServerEvent) => void;
      /** Called once, when a segment could not be stored. */
      failed: () => void;
      /** Called once each segment is stored (and sent, unless provisional). */
      stored: (seq: number) => void;
    },
  ) {}

  /**
   * A provisional segment (a lost socket's open utterance, see session-machine/types.ts) is marked
   * so. `cepstralMeans`, the session's after this final, are stored with it.
   */
  add(
    sessionId: string,
    seq: number,
    segment: TranscriptSegment,
    provisional: boolean,
    cepstralMeans?: CepstralMeans,
  ): void {
    this.#chain = this.#chain.then(() => this.storeAndSend(sessionId, seq, segment, provisional, cepstralMeans));
  }

  /** Resolves once every final added so far, and any added meanwhile, is stored and sent. */
  async drained(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.#chain;
      await last;
    } while (last !== this.#chain);
  }

  private async storeAndSend(
    sessionId: string,
    seq: number,
    segment: TranscriptSegment,
    provisional: boolean,
    cepstralMeans: CepstralMeans | undefined,
  ): Promise<void> {
    if (this.#failed) return;
    let sent: TranscriptSegment;
    try {
      await this.deps.segments.insert(
        {
          session_id: sessionId,
          seq,
          id: segment.id,
          text: segment.text,
          start_ms: segment.startMs,
          end_ms: segment.endMs,
          channel: segment.channel,
          speaker: segment.speaker,
          speaker_label: segment.speakerLabel ?? null,
          words: segment.words === undefined ? null : JSON.stringify(segment.words),
          provisional: provisional ? 1 : 0,
          created_at: this.deps.clock.now(),
        },
        cepstralMeans,
      );
      sent = correctedSegment(segment, await this.deps.corrections.roles(sessionId), undefined);
    } catch (error) {
      this.#failed = true;
      this.deps.logger.error({ err: error, sessionId, segmentId: segment.id }, 'realtime segment not stored');
      this.deps.failed();
      return;
    }
    if (!provisional) this.deps.send({ type: 'final', segment: sent });
    this.deps.stored(seq);
  }
}
