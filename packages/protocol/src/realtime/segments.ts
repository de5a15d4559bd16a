// Plain functions, no schemas: the browser client imports them without bundling zod.

const PREFIX = 'seg_';
const DIGITS = 6;
const SEGMENT_ID = new RegExp(`^${PREFIX}(\\d{${DIGITS},})$`);

/** The id of a session's `seq`th segment (from 1): `seg_000001`, zero-padded to six digits. */
export function segmentId(seq: number): string {
  return `${PREFIX}${String(seq).padStart(DIGITS, '0')}`;
}

/** The seq of a `seg_000042` id; undefined for anything else (including a differently padded one). */
export function segmentSeq(id: string): number | undefined {
  const digits = SEGMENT_ID.exec(id)?.[1];
  if (digits === undefined) return undefined;
  const seq = Number(digits);
  return Number.isSafeInteger(seq) && seq > 0 && segmentId(seq) === id ? seq : undefined;
}

/**
 * Orders segment ids by their number: past `seg_999999` the ids grow a digit and a string
 * comparison would put `seg_1000000` first. An id that is not a segment id sorts before every one that is.
 */
export function compareSegmentIds(a: string, b: string): number {
  return (segmentSeq(a) ?? 0) - (segmentSeq(b) ?? 0);
}
