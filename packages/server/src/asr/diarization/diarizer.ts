/**
 * Speakers for one microphone: a stream's finals labelled with the voice that spoke them (`S1`,
 * `S2`, … in order of first appearance) and that voice's role. Runs beside the decoder in the
 * recognizer's workers, on the same audio: features as the audio arrives (speaker-features.ts), the
 * voice when a final comes out (speaker-clusters.ts, on its words' voiced frames), the role from
 * what each voice has said so far (speaker-roles.ts). A final's role is the best judgement at the
 * time; readers of a whole transcript judge again with everything said (speaker-roles.ts).
 *
 * Each final gets one voice: the recognizer ends an utterance at a pause of about 0.3 s, and turns
 * change at pauses, so on the evaluation's dialogues no final held two voices.
 */
import type { FinalEvent } from '../recognizer.js';
import { DEFAULT_VAD_OPTIONS } from '../vad.js';
import { frameStats, SpeakerClusters } from './speaker-clusters.js';
import { SpeakerFeatures } from './speaker-features.js';
import { SpeakerRoles, type SpeakerRole } from './speaker-roles.js';

/** Longer than the longest utterance the decoder lets run (18 s), so a final's frames are all still there. */
const KEEP_SECONDS = 30;
/**
 * Frames within this much of the utterance's loudest are voiced, the rest pause and breath; and
 * never below the level the speech detector calls silence, so room noise never makes a voice.
 */
const VOICED_WITHIN_DB = 30;
const MIN_VOICED_DBFS = DEFAULT_VAD_OPTIONS.minSpeechDbfs;
/** Below this many voiced frames (0.1 s) an utterance keeps the previous one's voice. */
const MIN_FRAMES = 10;

export interface SpeakerAttribution {
  speakerLabel: string;
  speaker: SpeakerRole;
}

export class Diarizer {
  private readonly features = new SpeakerFeatures(KEEP_SECONDS);
  private readonly clusters = new SpeakerClusters();
  private readonly roles = new SpeakerRoles();
  private lastVoice: number | null = null;

  write(pcm: Int16Array): void {
    this.features.write(pcm);
  }

  /** The final's voice and role; null when it has too little voiced audio and no voice came before. */
  attribute(final: Pick<FinalEvent, 'text' | 'words' | 'startMs' | 'endMs'>): SpeakerAttribution | null {
    const spans = final.words?.length ? final.words : [{ startMs: final.startMs, endMs: final.endMs }];
    const frames = spans.flatMap((span) => this.features.between(span.startMs, span.endMs));
    const loudest = Math.max(...frames.map((frame) => frame.energyDb));
    const floor = Math.max(loudest - VOICED_WITHIN_DB, MIN_VOICED_DBFS);
    const voiced = frames.filter((frame) => frame.energyDb > floor);
    const voice =
      voiced.length >= MIN_FRAMES
        ? this.clusters.assign(frameStats(voiced.map((frame) => frame.cepstra)))
        : this.lastVoice;
    if (voice === null) return null;
    this.lastVoice = voice;
    const speakerLabel = `S${voice + 1}`;
    this.roles.add(speakerLabel, final.text);
    return { speakerLabel, speaker: this.roles.roleOf(speakerLabel) };
  }
}
