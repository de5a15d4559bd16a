import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { parseRealtimeClientMessage } from './parse-client-message.js';

describe('parseRealtimeClientMessage', () => {
  it('fills the defaults of a minimal start', () => {
    expect(parseRealtimeClientMessage('{"type":"start","audio":{"encoding":"pcm_s16le","sampleRate":16000}}')).toEqual({
      ok: true,
      message: {
        type: 'start',
        audio: { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 },
        language: 'en-US',
        interimResults: true,
      },
    });
  });

  it('accepts every control message', () => {
    for (const type of ['finalize', 'pause', 'resume', 'keepalive', 'stop']) {
      expect(parseRealtimeClientMessage(JSON.stringify({ type }))).toEqual({ ok: true, message: { type } });
    }
  });

  it('accepts a resume of an interrupted session', () => {
    const parsed = parseRealtimeClientMessage(
      JSON.stringify({
        type: 'start',
        audio: { encoding: 'pcm_f32le', sampleRate: 48000, channels: 2 },
        language: 'en-GB',
        interimResults: false,
        vocabulary: ['metoprolol', 'meniscus'],
        resume: { sessionId: 'rts_1', resumeToken: 'tok', lastAckedAudioMs: 5120, lastSegmentId: 'seg_0007' },
      }),
    );
    expect(parsed.ok).toBe(true);
  });

  it.each([
    ['not JSON', 'hello', 'invalid_message', 'Text frames must be JSON messages.'],
    ['no type', '{}', 'invalid_message', 'type: must be a string naming the message.'],
    ['an array', '[]', 'invalid_message', 'type: must be a string naming the message.'],
    [
      'an unknown type',
      '{"type":"shout"}',
      'unknown_message_type',
      'type: must be one of start, finalize, pause, resume, keepalive, stop.',
    ],
    [
      'an unsupported encoding',
      '{"type":"start","audio":{"encoding":"opus","sampleRate":16000}}',
      'unsupported_encoding',
      'audio.encoding: must be one of pcm_s16le, pcm_f32le.',
    ],
    [
      'an unsupported encoding beside other invalid fields',
      '{"type":"start","audio":{"encoding":"opus","sampleRate":96000},"now":true}',
      'unsupported_encoding',
      'audio.encoding: must be one of pcm_s16le, pcm_f32le.',
    ],
    [
      'a sample rate out of range',
      '{"type":"start","audio":{"encoding":"pcm_s16le","sampleRate":96000}}',
      'invalid_message',
      'audio.sampleRate: must be at most 48000',
    ],
    [
      'three channels',
      '{"type":"start","audio":{"encoding":"pcm_s16le","sampleRate":16000,"channels":3}}',
      'invalid_message',
      'audio.channels',
    ],
    [
      'a malformed language',
      '{"type":"start","audio":{"encoding":"pcm_s16le","sampleRate":16000},"language":"english please"}',
      'invalid_message',
      'language: must be a BCP 47 language tag such as en-US',
    ],
    ['an extra field', '{"type":"stop","now":true}', 'invalid_message', 'now: is not a known field'],
  ])('refuses %s with a coded, field-level reason', (_name, frame, code, message) => {
    const parsed = parseRealtimeClientMessage(frame);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.code).toBe(code);
    expect(parsed.message).toContain(message);
  });

  it('never repeats the frame and never throws', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc
            .anything()
            .map((value) => JSON.stringify(value) as string | undefined)
            .filter((frame) => frame !== undefined),
        ),
        (frame) => {
          const parsed = parseRealtimeClientMessage(frame);
          if (!parsed.ok && frame.length > 12) expect(parsed.message).not.toContain(frame);
        },
      ),
    );
  });
});
