import type { UsageDay, UsageMetric } from '@chartwright/protocol';

export const METRIC_LABELS: Readonly<Record<UsageMetric, string>> = {
  restRequests: 'REST requests',
  notesGenerated: 'Notes generated',
  realtimeAudioSeconds: 'Realtime audio minutes',
  widgetTokens: 'Widget tokens',
};

/** A metric's figure as the console shows it: audio in minutes, one decimal; the rest as counts. */
export function metricValue(row: Pick<UsageDay, UsageMetric>, metric: UsageMetric): number {
  return metric === 'realtimeAudioSeconds' ? Math.round(row.realtimeAudioSeconds / 6) / 10 : row[metric];
}

/** The metric per day over the rows given (every project environment summed), oldest day first. */
export function dailyTotals(rows: readonly UsageDay[], metric: UsageMetric): { day: string; value: number }[] {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.day, (totals.get(row.day) ?? 0) + metricValue(row, metric));
  return [...totals]
    .map(([day, value]) => ({ day, value: Math.round(value * 10) / 10 }))
    .sort((a, b) => a.day.localeCompare(b.day));
}

const WIDTH = 600;
const HEIGHT = 160;

/**
 * Bars of one metric per day, drawn in inline SVG (no script, no style: the page's CSP allows
 * neither inline). Announced as one image with a summary; the table under it has every figure.
 */
export function UsageChart({ rows, metric }: { rows: readonly UsageDay[]; metric: UsageMetric }) {
  const days = dailyTotals(rows, metric);
  if (days.length === 0) return <p>No use in this period.</p>;
  const max = Math.max(...days.map(({ value }) => value), 1);
  const peak = days.reduce((best, day) => (day.value > best.value ? day : best));
  const slot = WIDTH / days.length;
  const summary =
    `${METRIC_LABELS[metric]} per day, ${days.length} day${days.length === 1 ? '' : 's'} from ${days[0]?.day ?? ''} ` +
    `to ${days.at(-1)?.day ?? ''}; highest ${peak.value} on ${peak.day}. The table below lists every figure.`;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} preserveAspectRatio="none">
        {days.map(({ day, value }, index) => {
          const height = (value / max) * (HEIGHT - 4);
          return (
            <rect
              key={day}
              class="bar"
              x={index * slot + slot * 0.1}
              y={HEIGHT - height}
              width={slot * 0.8}
              height={height}
            >
              <title>{`${day}: ${value}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption class="chart-axis">
        <span>{days[0]?.day}</span>
        <span>
          highest: {peak.value} ({METRIC_LABELS[metric]})
        </span>
        <span>{days.at(-1)?.day}</span>
      </figcaption>
    </figure>
  );
}
