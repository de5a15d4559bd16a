/** Reading what `GET /metrics` answered (the Prometheus text format), for tests that assert on series. */

export interface Sample {
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
}

const SAMPLE = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** Every sample of the exposition, comments left out. */
export function samplesOf(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const match = SAMPLE.exec(line);
    if (match === null || line.startsWith('#')) return [];
    const [, name = '', labels = '', value = ''] = match;
    const pairs = [...labels.matchAll(LABEL)].map(([, key = '', labelValue = '']) => [key, labelValue] as const);
    return [{ name, labels: Object.fromEntries(pairs), value: Number(value) }];
  });
}

/**
 * The value of the one sample named `name` whose labels are exactly `labels`; undefined when there
 * is none.
 */
export function sampleValue(
  text: string,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const wanted = Object.entries(labels);
  return samplesOf(text).find(
    (sample) =>
      sample.name === name &&
      Object.keys(sample.labels).length === wanted.length &&
      wanted.every(([key, value]) => sample.labels[key] === value),
  )?.value;
}
