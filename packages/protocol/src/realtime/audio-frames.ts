// Plain functions, no schemas: the browser client imports them without bundling zod.
import type { AudioFormat } from './messages.js';

/** Bytes of one sample frame (one sample of every channel): binary frames carry whole ones only. */
export function bytesPerFrame(format: Pick<AudioFormat, 'encoding' | 'channels'>): number {
  return (format.encoding === 'pcm_s16le' ? 2 : 4) * format.channels;
}

/** Sample frames in `bytes` of audio; undefined when `bytes` is not a whole number of them. */
export function framesIn(format: Pick<AudioFormat, 'encoding' | 'channels'>, bytes: number): number | undefined {
  const size = bytesPerFrame(format);
  return bytes % size === 0 ? bytes / size : undefined;
}
