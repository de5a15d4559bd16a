/**
 * Decoder worker process (forked by pool.ts). Owns one decoder per stream assigned to it and keeps
 * one fresh spare, so opening a stream does not wait for a model to load. A decoder is freed when
 * its stream ends rather than reused: a reused decoder would carry the previous speaker's cepstral
 * normalisation into the next stream. Models load on another thread, one at a time, so the streams
 * this worker carries keep being decoded while a new one opens; their work goes through a
 * TurnTakingQueue, so a load that has ended is taken up between slices of decoding rather than
 * after all the audio queued before it.
 */
import { Diarizer } from '../diarization/diarizer.js';
import { NarrowbandRestorer } from '../narrowband.js';
import { loadPocketSphinx, type Decoder, type PocketSphinxLibrary } from './native.js';
import { SETTINGS_ENV, type FromWorker, type ToWorker, type WorkerSettings } from './messages.js';
import { DecoderSession, type DecoderSessionEvent } from './decoder-session.js';
import { TurnTakingQueue } from './turn-taking-queue.js';

function send(message: FromWorker): void {
  process.send?.(message);
}

/** How often, at most, a decoding worker reports its totals (the metrics read the last report). */
const USAGE_INTERVAL_MS = 1_000;

/** The worker's totals since it started: CPU (the process's, every thread) and audio decoded. */
class Usage {
  private decodedSamples = 0;
  private reportedAt = 0;

  decoded(samples: number): void {
    this.decodedSamples += samples;
    if (Date.now() - this.reportedAt >= USAGE_INTERVAL_MS) this.report();
  }

  /** Now, whatever the interval: when a stream ends, so its last audio counts though none follows. */
  report(): void {
    this.reportedAt = Date.now();
    const { user, system } = process.cpuUsage();
    send({ type: 'usage', cpuMicros: user + system, decodedSamples: this.decodedSamples });
  }
}

const usage = new Usage();

function emit(id: number, live: Live, events: DecoderSessionEvent[]): void {
  for (const event of attributed(live, events)) send({ ...event, id });
}

interface Live {
  decoder: Decoder;
  decoderSession: DecoderSession;
  /** Telephone-band audio made fit for the wideband model before the decoder hears it. */
  restorer: NarrowbandRestorer;
  /** Hears the audio as it came (before the restorer), to tell voices apart; null when not asked to. */
  diarizer: Diarizer | null;
  decoded: number;
}

/** Decoders made one after another (each load takes a core), with the next one always on its way. */
class DecoderSupply {
  private spare: Promise<Decoder>;

  constructor(
    private readonly make: () => Promise<Decoder>,
    first: Decoder,
  ) {
    this.spare = Promise.resolve(first);
  }

  /** The spare, once loaded; resolves (or rejects) before any decoder taken after it. */
  take(): Promise<Decoder> {
    const decoder = this.spare;
    this.spare = this.next();
    return decoder;
  }

  /** The decoder after the current spare: its load starts once the spare's has ended, either way. */
  private next(): Promise<Decoder> {
    const decoder = this.spare.then(this.make, this.make);
    // A spare nobody takes must not fail the process as an unhandled rejection.
    decoder.catch(() => undefined);
    return decoder;
  }
}

function liveStream(
  decoder: Decoder,
  settings: WorkerSettings,
  options: { diarize: boolean; cepstralMean: readonly number[] | null },
): Live {
  const { cepstralMean, diarize } = options;
  if (cepstralMean !== null) decoder.setCepstralMean(cepstralMean, true);
  else if (settings.cepstralPrior !== null) decoder.setCepstralMean(settings.cepstralPrior, false);
  return {
    decoder,
    decoderSession: new DecoderSession(decoder, { ...settings, decodeFirstWhole: cepstralMean === null }),
    restorer: new NarrowbandRestorer(),
    diarizer: diarize ? new Diarizer() : null,
    decoded: 0,
  };
}

/** The events with each final labelled by its voice, when the stream diarizes. */
function attributed(live: Live, events: DecoderSessionEvent[]): DecoderSessionEvent[] {
  const { diarizer } = live;
  if (diarizer === null) return events;
  return events.map((event) => (event.type === 'final' ? { ...event, ...diarizer.attribute(event) } : event));
}

function fail(id: number, error: unknown): void {
  send({
    type: 'failed',
    id,
    code: 'recognizer_failed',
    message: error instanceof Error ? error.message : String(error),
  });
}

/** Frees the stream's decoder and gives its memory back to the system at once. */
function releaseStream(streams: Map<number, Live>, id: number, library: PocketSphinxLibrary): void {
  const live = streams.get(id);
  if (live === undefined) return;
  live.decoder.free();
  streams.delete(id);
  library.releaseFreeMemory();
}

/** A stream's work, in its turn: its audio, `finalize` and `end` (see TurnTakingQueue). */
function handleInTurn(
  streams: Map<number, Live>,
  library: PocketSphinxLibrary,
  message: Exclude<ToWorker, { type: 'open' | 'abort' }>,
): void {
  const live = streams.get(message.id);
  try {
    switch (message.type) {
      case 'audio':
        if (live === undefined) return;
        live.diarizer?.write(message.pcm);
        emit(message.id, live, live.decoderSession.write(live.restorer.process(message.pcm)));
        live.decoded += message.pcm.length;
        send({ type: 'decoded', id: message.id, samples: live.decoded });
        usage.decoded(message.pcm.length);
        return;
      case 'finalize':
        if (live !== undefined) emit(message.id, live, live.decoderSession.finalize());
        return;
      case 'end':
        if (live !== undefined) emit(message.id, live, live.decoderSession.end());
        releaseStream(streams, message.id, library);
        send({ type: 'ended', id: message.id });
        usage.report();
        return;
    }
  } catch (error) {
    // A call that fails without faulting (bad return code) costs only its stream.
    releaseStream(streams, message.id, library);
    fail(message.id, error);
  }
}

/** The decoders' supply once the first one loaded; undefined, with the parent told why, when none can. */
async function openSupply(
  settings: WorkerSettings,
): Promise<{ supply: DecoderSupply; library: PocketSphinxLibrary } | undefined> {
  try {
    const library = loadPocketSphinx(settings.libraryPath);
    // The first spare proves the library and model load before the worker says it is ready.
    const first = await library.createDecoder(settings.decoderArgs);
    return { supply: new DecoderSupply(() => library.createDecoder(settings.decoderArgs), first), library };
  } catch (error) {
    send({ type: 'unavailable', reason: error instanceof Error ? error.message : String(error) });
    process.disconnect();
    return undefined;
  }
}

async function main(): Promise<void> {
  const settings = JSON.parse(process.env[SETTINGS_ENV] ?? '{}') as WorkerSettings;
  const opened = await openSupply(settings);
  if (opened === undefined) return;
  const { supply, library } = opened;
  const streams = new Map<number, Live>();

  const open = async (id: number, options: Parameters<typeof liveStream>[2]): Promise<void> => {
    try {
      const decoder = await supply.take();
      streams.set(id, liveStream(decoder, settings, options));
      send({ type: 'opened', id });
    } catch (error) {
      fail(id, error);
    }
  };

  const work = new TurnTakingQueue();
  process.on('message', (message: ToWorker) => {
    switch (message.type) {
      // Neither waits behind the audio queued before it: a new stream's decoder is its own, and an
      // aborted stream's queued audio is dropped unheard.
      case 'open':
        void open(message.id, message);
        return;
      case 'abort':
        releaseStream(streams, message.id, library);
        return;
      case 'audio':
      case 'finalize':
      case 'end':
        work.push(() => handleInTurn(streams, library, message));
    }
  });
  // The parent is gone: nothing can read our events, so stop.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready' });
}

await main();
