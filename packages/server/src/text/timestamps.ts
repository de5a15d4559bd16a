/** Timestamps in transcripts (`[00:01:23]`, `00:01:23 -`, `(12:03)`, `Doctor [00:01]:`), which are not speech. */
const CLOCK = String.raw`\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?`;
/** A timestamp at the start or end of a line, bracketed, parenthesised or bare, with a dash after it. */
const LEADING_TIMESTAMP = new RegExp(String.raw`^(?:\[${CLOCK}\]|\(${CLOCK}\)|${CLOCK}(?=\s|$))\s*(?:[-–—|>]+\s*)?`);
const TRAILING_TIMESTAMP = new RegExp(String.raw`\s*(?:\[${CLOCK}\]|\(${CLOCK}\))$`);
/** A timestamp between a label and its colon: `Doctor [00:01:23]:` or `Doctor (12:03):`. */
const INNER_TIMESTAMP = new RegExp(
  String.raw`^([A-Za-z][\w.'’ -]{0,40}?)\s*(?:\[${CLOCK}\]|\(${CLOCK}\)|${CLOCK})\s*:`,
);

export function stripTimestamps(line: string): string {
  let result = line;
  // Repeated because a line may carry a range (`00:01 - 00:05`) or a timestamp on both sides of a tag.
  for (let round = 0; round < 3; round++) {
    const next = result.replace(LEADING_TIMESTAMP, '').replace(TRAILING_TIMESTAMP, '');
    if (next === result) break;
    result = next;
  }
  return result.replace(INNER_TIMESTAMP, '$1:').trim();
}
