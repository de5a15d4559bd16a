/** Recorded time as the recorder shows it: `m:ss`, or `h:mm:ss` from an hour on. */
export function formatElapsed(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** The same time spoken: "1 minute 5 seconds", for screen readers. */
export function spokenElapsed(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const parts: [number, string][] = [
    [Math.floor(total / 3600), 'hour'],
    [Math.floor((total % 3600) / 60), 'minute'],
    [total % 60, 'second'],
  ];
  const spoken = parts
    .filter(([count]) => count > 0)
    .map(([count, unit]) => `${count} ${unit}${count === 1 ? '' : 's'}`);
  return spoken.length === 0 ? '0 seconds' : spoken.join(' ');
}

/** Rows a text area needs to show `text` without scrolling, at about 60 characters a line, within bounds. */
export function rowsFor(text: string, min: number, max: number): number {
  const lines = text.split('\n').reduce((rows, line) => rows + Math.max(1, Math.ceil(line.length / 60)), 0);
  return Math.min(max, Math.max(min, lines));
}

/** The meter's floor: quieter than this (room noise) shows as nothing. */
const METER_FLOOR_DB = -60;

/** A level meter reads like a sound level, in decibels: an RMS of 0.001 (−60 dB) is empty, 1 (0 dB) full. */
export function meterLevel(rms: number): number {
  if (!(rms > 0)) return 0;
  const decibels = 20 * Math.log10(rms);
  return Math.min(1, Math.max(0, (decibels - METER_FLOOR_DB) / -METER_FLOOR_DB));
}

/** A section's sentences as the service wrote them, so a flag's sentence number finds its text. */
export function sentencesOf(text: string): string[] {
  return (
    text
      // Not after a title or an abbreviation ("Dr. Lee", "e.g. fever"), nor before a lower-case word.
      .split(/(?<=(?<!\b(?:Dr|Mr|Mrs|Ms|St|vs|approx|e\.g|i\.e))[.!?])\s+(?=[^\p{Ll}])|\n+/u)
      .map((sentence) => sentence.trim())
      .filter((sentence) => sentence !== '')
  );
}
