/**
 * Decoder worker process (forked by pool.ts). Owns one decoder per stream assigned to it and keeps
 * one fresh spare so opening a stream does not wait ~300 ms for the model to load. A decoder is
 * freed when its stream ends rather than reused: a reused decoder would carry the previous
 * speaker's cepstral normalisation into the next stream.
 */
import { loadPocketSphinx, type Decoder, type PocketSphinxLibrary } from './native.js';
import { SETTINGS_ENV, type FromWorker, type ToWorker, type WorkerSettings } from './messages.js';
import { DecoderSession, type SessionEvent } from './session.js';

function send(message: FromWorker): void {
  process.send?.(message);
}

function emit(id: number, events: SessionEvent[]): void {
  for (const event of events) send({ ...event, id });
}

interface Live {
  decoder: Decoder;
  session: DecoderSession;
  decoded: number;
}

function main(): void {
  const settings = JSON.parse(process.env[SETTINGS_ENV] ?? '{}') as WorkerSettings;
  let library: PocketSphinxLibrary;
  let spare: Decoder | undefined;
  try {
    library = loadPocketSphinx(settings.libraryPath);
    spare = library.createDecoder(settings.decoderArgs);
  } catch (error) {
    send({ type: 'unavailable', reason: error instanceof Error ? error.message : String(error) });
    process.disconnect();
    return;
  }
  const streams = new Map<number, Live>();

  const takeDecoder = (): Decoder => {
    const decoder = spare ?? library.createDecoder(settings.decoderArgs);
    spare = undefined;
    // Refill after this turn, so the `opened` reply goes out first.
    setImmediate(() => {
      spare ??= library.createDecoder(settings.decoderArgs);
    });
    return decoder;
  };

  const release = (id: number): void => {
    streams.get(id)?.decoder.free();
    streams.delete(id);
  };

  process.on('message', (message: ToWorker) => {
    const live = streams.get(message.id);
    try {
      switch (message.type) {
        case 'open': {
          const decoder = takeDecoder();
          const session = new DecoderSession(decoder, settings);
          streams.set(message.id, { decoder, session, decoded: 0 });
          send({ type: 'opened', id: message.id });
          return;
        }
        case 'audio':
          if (live === undefined) return;
          emit(message.id, live.session.write(message.pcm));
          live.decoded += message.pcm.length;
          send({ type: 'decoded', id: message.id, samples: live.decoded });
          return;
        case 'finalize':
          if (live !== undefined) emit(message.id, live.session.finalize());
          return;
        case 'end':
          if (live !== undefined) emit(message.id, live.session.end());
          release(message.id);
          send({ type: 'ended', id: message.id });
          return;
        case 'abort':
          release(message.id);
          return;
      }
    } catch (error) {
      // A call that fails without faulting (bad return code) costs only its stream.
      release(message.id);
      send({
        type: 'failed',
        id: message.id,
        code: 'recognizer_failed',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  });
  // The parent is gone: nothing can read our events, so stop.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready' });
}

main();
