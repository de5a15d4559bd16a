/**
 * The one short-time spectrum the recognizer's own signal processing needs (the narrowband judge,
 * the speaker features): 512 samples (32 ms at 16 kHz), Hann-windowed, radix-2. Kept here once so
 * both read the same bins.
 */
export const SPECTRUM_FRAME = 512;

const WINDOW = Float64Array.from(
  { length: SPECTRUM_FRAME },
  (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / SPECTRUM_FRAME),
);
const BIT_REVERSED = Uint16Array.from({ length: SPECTRUM_FRAME }, (_, i) => {
  let reversed = 0;
  for (let bit = 1, mirror = SPECTRUM_FRAME >> 1; bit < SPECTRUM_FRAME; bit <<= 1, mirror >>= 1) {
    if (i & bit) reversed |= mirror;
  }
  return reversed;
});
const COS = Float64Array.from({ length: SPECTRUM_FRAME / 2 }, (_, k) => Math.cos((-2 * Math.PI * k) / SPECTRUM_FRAME));
const SIN = Float64Array.from({ length: SPECTRUM_FRAME / 2 }, (_, k) => Math.sin((-2 * Math.PI * k) / SPECTRUM_FRAME));

/** Working arrays for powerSpectrum: a caller that computes one every 10 ms reuses them. */
export interface SpectrumScratch {
  re: Float64Array;
  im: Float64Array;
  power: Float64Array;
}

export function spectrumScratch(): SpectrumScratch {
  return {
    re: new Float64Array(SPECTRUM_FRAME),
    im: new Float64Array(SPECTRUM_FRAME),
    power: new Float64Array(SPECTRUM_FRAME / 2),
  };
}

/**
 * |X[k]|² of the Hann-windowed frame (SPECTRUM_FRAME samples) for k < SPECTRUM_FRAME/2, in
 * `scratch.power` when scratch arrays are given (overwritten by the next call), else a new array.
 */
export function powerSpectrum(frame: ArrayLike<number>, scratch: SpectrumScratch = spectrumScratch()): Float64Array {
  const { re, im, power } = scratch;
  im.fill(0);
  for (let i = 0; i < SPECTRUM_FRAME; i++) re[BIT_REVERSED[i] ?? 0] = (frame[i] ?? 0) * (WINDOW[i] ?? 0);
  for (let size = 2; size <= SPECTRUM_FRAME; size <<= 1) {
    const half = size >> 1;
    const step = SPECTRUM_FRAME / size;
    for (let start = 0; start < SPECTRUM_FRAME; start += size) {
      for (let k = 0; k < half; k++) {
        const a = start + k;
        const b = a + half;
        const wr = COS[k * step] ?? 0;
        const wi = SIN[k * step] ?? 0;
        const br = (re[b] ?? 0) * wr - (im[b] ?? 0) * wi;
        const bi = (re[b] ?? 0) * wi + (im[b] ?? 0) * wr;
        re[b] = (re[a] ?? 0) - br;
        im[b] = (im[a] ?? 0) - bi;
        re[a] = (re[a] ?? 0) + br;
        im[a] = (im[a] ?? 0) + bi;
      }
    }
  }
  for (let k = 0; k < SPECTRUM_FRAME / 2; k++) power[k] = (re[k] ?? 0) ** 2 + (im[k] ?? 0) ** 2;
  return power;
}
