/** 16-bit PCM pieces joined into one buffer, in order. */
export function concatPcm(parts: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
