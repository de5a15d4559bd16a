/**
 * Realtime transcription under load: N sessions at once, each streaming real recorded read speech
 * (the read sentences of the real-speech pool: pocketsphinx-testdata's LibriVox recordings, and the
 * real-speech set's general recordings when it is present; each followed by a second of silence)
 * in 100 ms frames at real-time pace, over the WebSocket of the service under test. A short command
 * looped, as before, flattered the latency: long sentences leave the decoder more to finish. Reports finals per second
 * as audio seconds transcribed per second (the real-time streams sustained) and the latency from the
 * end of each final's audio leaving the client to the final arriving. Against the one-stream run,
 * the ratio shows how far throughput scales: N streams fully sustained read N×100%. The streams
 * start at different points of the loop (see StreamPhase), as independent encounters would.
 */
import { createHistogram, performance, type RecordableHistogram } from 'node:perf_hooks';

import { RECOGNIZER_SAMPLE_RATE, REALTIME_WS_PATH } from '@chartwright/protocol';
import WebSocket from 'ws';

import { REAL_SPEECH_DIR } from '../shared/datasets.js';
import { processCpuSeconds, processRssBytes } from '../shared/process-cpu.js';
import { loadRealSpeech, POCKETSPHINX_TESTDATA, readRecording, RealSpeechError } from '../speech/real-speech.js';
import type { Measurement, Scenario } from './runner.js';

const FRAME_BYTES = 3200; // 100 ms of 16 kHz 16-bit mono
const SILENCE_FRAMES = 10;
/**
 * Each level runs at least this long, whatever BENCH_DURATION_SECONDS says: the read sentences pause
 * between phrases, so a stream ends an utterance every few seconds, and 10 s of 16 streams would
 * leave p95 to the two highest of a few dozen finals.
 */
const MIN_SECONDS = 30;

interface StreamResult extends StreamLatencies {
  finals: number;
  /** Audio the server acknowledged for the whole session (its `ended` total). */
  audioMs: number;
  /**
   * The stream's first final, apart: a cold stream's first utterance is decoded a second time, by
   * its own cepstral mean, before its final goes out (docs/realtime.md, "Cepstral normalisation"), so
   * it waits longer than the rest and a short level's p95 is mostly first finals.
   */
  laterLatenciesMs: number[];
  /** From sending `start` to `started`: how long a new session waited for its decoder. */
  startMs: number | null;
  /** Turned away with `at_capacity` before it started: the instance had no room for another stream. */
  refused: boolean;
  problems: string[];
}

/** One session: streams utterances at real time until `untilMs`, then stops and waits for `ended`. */
async function runStream(
  url: string,
  apiKey: string,
  frames: readonly Buffer[],
  firstFrame: number,
  untilMs: number,
): Promise<StreamResult> {
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${apiKey}` } });
  const result: StreamResult = {
    finals: 0,
    audioMs: 0,
    firstLatencyMs: null,
    laterLatenciesMs: [],
    startMs: null,
    refused: false,
    problems: [],
  };
  let startSentAt = 0;
  // When each 100 ms frame left this client: a final's latency runs from the frame holding its end.
  const sentAt: number[] = [];

  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const finish = () => {
      clearInterval(timer);
      resolve(result);
    };
    socket.on('error', (error) => {
      result.problems.push(`socket error: ${error.message}`);
      finish();
    });
    socket.on('close', finish);
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const event = JSON.parse((data as Buffer).toString('utf8')) as {
        type: string;
        code?: string;
        audioMs?: number;
        segment?: { endMs: number };
      };
      if (event.type === 'started') {
        result.startMs = performance.now() - startSentAt;
        let frame = firstFrame;
        timer = setInterval(() => {
          if (performance.now() >= untilMs) {
            clearInterval(timer);
            socket.send(JSON.stringify({ type: 'stop' }));
            stopped = true;
            return;
          }
          socket.send(frames[frame % frames.length] ?? Buffer.alloc(FRAME_BYTES));
          sentAt.push(performance.now());
          frame += 1;
        }, 100);
      } else if (event.type === 'final') {
        result.finals += 1;
        const spokenAt = sentAt[Math.max(0, Math.ceil((event.segment?.endMs ?? 0) / 100) - 1)];
        // A final that `stop` flushed did not wait for the end of speech: not this latency.
        if (spokenAt === undefined || stopped) return;
        const latencyMs = performance.now() - spokenAt;
        if (result.finals === 1) result.firstLatencyMs = latencyMs;
        else result.laterLatenciesMs.push(latencyMs);
      } else if (event.type === 'error' && event.code === 'at_capacity' && result.startMs === null) {
        // Admission at work, not a failure: the level reports how many streams were admitted.
        result.refused = true;
      } else if (event.type === 'error') {
        result.problems.push(`error event ${event.code ?? ''}`);
      } else if (event.type === 'ended') {
        result.audioMs = event.audioMs ?? 0;
        socket.close();
      }
    });
    socket.on('open', () => {
      startSentAt = performance.now();
      socket.send(
        JSON.stringify({ type: 'start', audio: { encoding: 'pcm_s16le', sampleRate: 16000 }, interimResults: false }),
      );
    });
  });
}

/**
 * Each recording in 100 ms frames, then the silence that ends its utterance: one turn of the loop.
 * Every frame holds exactly 100 ms (a recording's last one is padded with silence), so the frame
 * holding a final's end is found from its stream time alone, however many turns the stream has made.
 */
export function loopFrames(recordings: readonly Buffer[]): Buffer[] {
  const frames: Buffer[] = [];
  for (const speech of recordings) {
    for (let offset = 0; offset < speech.length; offset += FRAME_BYTES) {
      const frame = Buffer.alloc(FRAME_BYTES);
      speech.copy(frame, 0, offset, Math.min(speech.length, offset + FRAME_BYTES));
      frames.push(frame);
    }
    for (let index = 0; index < SILENCE_FRAMES; index += 1) frames.push(Buffer.alloc(FRAME_BYTES));
  }
  return frames;
}

export interface StreamedSpeech {
  /** 16 kHz 16-bit mono little-endian PCM, one buffer per recording. */
  recordings: Buffer[];
  /** Which audio, for the report. */
  description: string;
}

/** The real read sentences the streams speak, in the pool's order. */
export async function streamedSpeech(
  realSpeechDirectory = REAL_SPEECH_DIR,
  testdataDirectory = POCKETSPHINX_TESTDATA,
): Promise<StreamedSpeech> {
  const pool = await loadRealSpeech(realSpeechDirectory, testdataDirectory);
  const chosen = pool.recordings.filter((recording) => recording.subset === 'read sentences');
  const recordings: Buffer[] = [];
  for (const recording of chosen) {
    const samples = await readRecording(recording.file);
    recordings.push(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
  }
  const sources = new Map<string, number>();
  for (const { source } of chosen) sources.set(source, (sources.get(source) ?? 0) + 1);
  const seconds = recordings.reduce((total, speech) => total + speech.length, 0) / 2 / RECOGNIZER_SAMPLE_RATE;
  const absent = sources.has('real-speech') ? '' : ` (no real-speech set at ${realSpeechDirectory})`;
  return {
    recordings,
    description:
      `streamed real read speech: ${[...sources].map(([source, count]) => `${source} ${count}`).join(', ')} ` +
      `recordings${absent}, ${seconds.toFixed(1)} s, each followed by ${SILENCE_FRAMES / 10} s of silence, looped`,
  };
}

/**
 * How the streams' loops line up. `staggered` (what independent encounters look like): stream i of
 * N starts i/N of the way into the loop, so utterances end spread over time. `lockstep`, the worst
 * case: every stream speaks and falls silent at the same instant, so every decoder's end-of-utterance
 * work lands in the same 100 ms.
 */
export type StreamPhase = 'staggered' | 'lockstep';

/** Where in the loop stream `index` of `streams` starts. */
export function startFrame(phase: StreamPhase, index: number, streams: number, loopFrames: number): number {
  return phase === 'lockstep' ? 0 : Math.floor((index * loopFrames) / streams);
}

export function realtimeScenario(streams: number, phase: StreamPhase, baseline?: string): Scenario {
  const many = streams === 1 ? 'stream' : phase === 'lockstep' ? 'streams in lockstep' : 'streams';
  return {
    name: `realtime, ${streams} ${many} at 1× (end of speech → final)`,
    ...(baseline === undefined ? {} : { baseline }),
    async measure({ targets, settings, progress }): Promise<Measurement> {
      const empty = { responses: 0, seconds: 0, requestsPerSecond: 0, p50Ms: 0, p95Ms: 0, p99Ms: 0 };
      let speech: StreamedSpeech;
      try {
        speech = await streamedSpeech();
      } catch (error) {
        if (!(error instanceof RealSpeechError)) throw error;
        return { ...empty, problems: [error.message] };
      }
      const frames = loopFrames(speech.recordings);
      const url = `${targets.apiOrigin.replace(/^http/, 'ws')}${REALTIME_WS_PATH}`;
      const durationSeconds = Math.max(MIN_SECONDS, settings.durationSeconds);
      progress(`realtime, ${streams} ${many}: measuring ${durationSeconds} s`);
      const cpuAtStart = recognizerCpuSeconds(targets.recognizerPids);
      const memory = new WorkerMemory(targets.recognizerPids);
      const start = performance.now();
      const results = await Promise.all(
        Array.from({ length: streams }, (_, index) =>
          runStream(
            url,
            targets.apiKey,
            frames,
            startFrame(phase, index, streams, frames.length),
            start + durationSeconds * 1000,
          ),
        ),
      );
      const seconds = (performance.now() - start) / 1000;
      const cpuAtEnd = recognizerCpuSeconds(targets.recognizerPids);
      const memoryDetail = await memory.afterStreams(streams);
      const latencies = latencyHistogram(results.flatMap(allLatencies));
      let finals = 0;
      let audioMs = 0;
      for (const result of results) {
        finals += result.finals;
        audioMs += result.audioMs;
      }
      const problems = results.flatMap((result) => result.problems);
      if (finals === 0) problems.push('no final at all');
      return {
        responses: finals,
        seconds,
        // Seconds of audio transcribed per second: the number of real-time streams sustained.
        requestsPerSecond: audioMs / 1000 / seconds,
        p50Ms: finals === 0 ? 0 : latencies.percentile(50) / 1000,
        p95Ms: finals === 0 ? 0 : latencies.percentile(95) / 1000,
        p99Ms: finals === 0 ? 0 : latencies.percentile(99) / 1000,
        problems,
        detail: [
          speech.description,
          ...(cpuAtStart === null || cpuAtEnd === null || audioMs === 0
            ? []
            : [recognizerLoad(cpuAtEnd - cpuAtStart, audioMs / 1000, seconds, targets.recognizerPids.length)]),
          ...(memoryDetail === null ? [] : [memoryDetail]),
          firstFinalsApart(results),
          sessionStarts(results),
        ].join('; '),
      };
    },
  };
}

/** A stream's end of speech → final latencies, its first final apart. */
export interface StreamLatencies {
  firstLatencyMs: number | null;
  laterLatenciesMs: readonly number[];
}

function allLatencies(result: StreamLatencies): readonly number[] {
  return result.firstLatencyMs === null ? result.laterLatenciesMs : [result.firstLatencyMs, ...result.laterLatenciesMs];
}

/** Latencies recorded in microseconds, so that the percentiles keep a tenth of a millisecond. */
function latencyHistogram(latenciesMs: readonly number[]): RecordableHistogram {
  const histogram = createHistogram({ lowest: 1, highest: 600_000_000, figures: 3 });
  for (const latencyMs of latenciesMs) histogram.record(Math.max(1, Math.round(latencyMs * 1000)));
  return histogram;
}

/**
 * The level's latency with each stream's first final apart from the rest: what a session's first
 * phrase waits, and what every later one does.
 */
export function firstFinalsApart(results: readonly StreamLatencies[]): string {
  const p95 = (latenciesMs: readonly number[]): string =>
    latenciesMs.length === 0
      ? 'none'
      : `p95 ${Math.round(latencyHistogram(latenciesMs).percentile(95) / 1000)} ms of ${latenciesMs.length}`;
  const first = results.flatMap((result) => (result.firstLatencyMs === null ? [] : [result.firstLatencyMs]));
  return `each stream's first final ${p95(first)}, the later finals ${p95(results.flatMap((result) => result.laterLatenciesMs))}`;
}

/** The recognizer workers' resident memory, summed; null when one cannot be read. */
function workersRss(pids: readonly number[]): number | null {
  let total = 0;
  for (const pid of pids) {
    const bytes = processRssBytes(pid);
    if (bytes === null) return null;
    total += bytes;
  }
  return pids.length === 0 ? null : total;
}

/** How long after the last stream ends the workers' memory is read: their decoders are freed by then. */
const SETTLE_MS = 2000;

/**
 * The recognizer workers' memory over a level: before its streams (idle: each worker's spare
 * decoder), the peak while they run (sampled every 250 ms), and once they have ended. Reported as
 * the memory each open stream adds and the after/idle ratio (1.0: everything given back).
 */
class WorkerMemory {
  private readonly idle: number | null;
  private peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pids: readonly number[]) {
    this.idle = workersRss(pids);
    this.timer = setInterval(() => {
      this.peak = Math.max(this.peak, workersRss(pids) ?? 0);
    }, 250);
  }

  async afterStreams(streams: number): Promise<string | null> {
    clearInterval(this.timer);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const after = workersRss(this.pids);
    if (this.idle === null || after === null || this.peak === 0) return null;
    return memoryDetail(this.idle, this.peak, after, streams);
  }
}

export function memoryDetail(idle: number, peak: number, after: number, streams: number): string {
  const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);
  return (
    `recognizer memory: idle ${mb(idle)} MB, peak ${mb(peak)} MB (${mb((peak - idle) / streams)} MB per stream), ` +
    `${mb(after)} MB after the streams ended (${(after / idle).toFixed(2)}× idle)`
  );
}

/** CPU seconds the recognizer's workers have used so far; null when one cannot be read (not Linux, a restart). */
function recognizerCpuSeconds(pids: readonly number[]): number | null {
  if (pids.length === 0) return null;
  let total = 0;
  for (const pid of pids) {
    const seconds = processCpuSeconds(pid);
    if (seconds === null) return null;
    total += seconds;
  }
  return total;
}

/** The decoding cost of a level: CPU per second of audio (real-time factor) and each worker's load. */
/**
 * How long the sessions waited from `start` to `started` (each one's decoder loads then, one after
 * another per worker): the median and the slowest, and how many never started.
 */
export function sessionStarts(sessions: readonly Pick<StreamResult, 'startMs' | 'refused'>[]): string {
  const started = sessions.flatMap(({ startMs }) => (startMs === null ? [] : [startMs])).sort((a, b) => a - b);
  const refused = sessions.filter((session) => session.refused).length;
  const never = sessions.length - started.length - refused;
  const unstarted =
    (refused === 0 ? '' : `; ${refused} of ${sessions.length} refused at_capacity`) +
    (never === 0 ? '' : `; ${never} of ${sessions.length} never started`);
  if (started.length === 0) return `session start → started: none started${unstarted}`;
  const median = started[Math.floor((started.length - 1) / 2)] ?? 0;
  const slowest = started[started.length - 1] ?? 0;
  return `session start → started: median ${Math.round(median)} ms, slowest ${Math.round(slowest)} ms${unstarted}`;
}

export function recognizerLoad(cpuSeconds: number, audioSeconds: number, wallSeconds: number, workers: number): string {
  const realTimeFactor = cpuSeconds / audioSeconds;
  const busy = cpuSeconds / wallSeconds / workers;
  return (
    `recognizer real-time factor ${realTimeFactor.toFixed(3)} (${cpuSeconds.toFixed(1)} CPU s for ` +
    `${audioSeconds.toFixed(1)} s of audio), its ${workers} worker(s) ${Math.round(busy * 100)}% busy`
  );
}
