/**
 * Linear-interpolation resampling of 16-bit PCM. Good enough for speech going into a 16 kHz
 * recognizer (the acoustic model only looks below ~7 kHz); downsampling first averages each
 * output sample's input span so high frequencies fold in less than with plain decimation.
 */
export function resampleLinear(input: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (!Number.isInteger(fromRate) || !Number.isInteger(toRate) || fromRate <= 0 || toRate <= 0) {
    throw new RangeError(`sample rates must be positive integers (got ${fromRate} → ${toRate})`);
  }
  if (fromRate === toRate) return input.slice();
  const outLength = Math.floor((input.length * toRate) / fromRate);
  const output = new Int16Array(outLength);
  const step = fromRate / toRate;
  const last = input.length - 1;
  for (let i = 0; i < outLength; i++) {
    const position = i * step;
    let value: number;
    if (step > 1) {
      // Box filter over the input span this output sample covers.
      const from = Math.floor(position);
      const to = Math.min(last, Math.floor(position + step - 1e-9));
      let sum = 0;
      for (let k = from; k <= to; k++) sum += input[k] ?? 0;
      value = sum / (to - from + 1);
    } else {
      const index = Math.floor(position);
      const fraction = position - index;
      const a = input[index] ?? 0;
      const b = input[Math.min(index + 1, last)] ?? a;
      value = a + (b - a) * fraction;
    }
    output[i] = Math.max(-32768, Math.min(32767, Math.round(value)));
  }
  return output;
}
