import { ENVIRONMENTS, type Project, type UsageDay, type UsageMetric } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { usageExportHref, type UsageFilters } from '../../api/console-api.js';
import { useConsole } from '../console-context.js';
import { TextInput } from '../fields.js';
import { ENVIRONMENT_LABELS, keysOf } from '../format.js';
import { useResource } from '../hooks.js';
import { PageTitle } from '../layout.js';
import { ErrorNotice } from '../notices.js';
import { METRIC_LABELS, metricValue, UsageChart } from '../usage-chart.js';

const METRICS = keysOf(METRIC_LABELS);

/** Usage per project environment and UTC day: a chart of one metric, every figure in a table, and CSV. */
export function UsagePage() {
  const { api } = useConsole();
  const [draft, setDraft] = useState<UsageFilters>({});
  const [filters, setFilters] = useState<UsageFilters>({});
  const [metric, setMetric] = useState<UsageMetric>('restRequests');
  const projects = useResource(() => api.projects(), 'projects');
  const usage = useResource(() => api.usage(filters), JSON.stringify(filters));
  return (
    <>
      <PageTitle title="Usage" />
      <UsageFilterForm
        draft={draft}
        onDraft={setDraft}
        projects={projects.data ?? []}
        exportHref={usageExportHref(filters)}
        onApply={() => setFilters(draft)}
      />
      <ErrorNotice error={usage.error} />
      {usage.data !== null && (
        <UsageFigures rows={usage.data} projects={projects.data ?? []} metric={metric} onMetric={setMetric} />
      )}
    </>
  );
}

interface UsageFilterFormProps {
  draft: UsageFilters;
  onDraft: (draft: UsageFilters) => void;
  projects: readonly Project[];
  /** The CSV export of what is shown (the filters applied, not the ones being edited). */
  exportHref: string;
  onApply: () => void;
}

function UsageFilterForm({ draft, onDraft, projects, exportHref, onApply }: UsageFilterFormProps) {
  const set = (name: keyof UsageFilters) => (value: string) => onDraft({ ...draft, [name]: value });
  return (
    <form
      class="filters"
      aria-label="Usage filters"
      onSubmit={(event) => {
        event.preventDefault();
        onApply();
      }}
    >
      <div class="field">
        <label for="usage-project">Project</label>
        <select
          id="usage-project"
          value={draft.projectId ?? ''}
          onChange={(event) => set('projectId')(event.currentTarget.value)}
        >
          <option value="">All projects</option>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="usage-environment">Environment</label>
        <select
          id="usage-environment"
          value={draft.environment ?? ''}
          onChange={(event) => set('environment')(event.currentTarget.value)}
        >
          <option value="">Both</option>
          {ENVIRONMENTS.map((environment) => (
            <option key={environment} value={environment}>
              {ENVIRONMENT_LABELS[environment]}
            </option>
          ))}
        </select>
      </div>
      <TextInput id="usage-from" label="From (UTC day)" type="date" value={draft.from ?? ''} onInput={set('from')} />
      <TextInput id="usage-to" label="To (UTC day)" type="date" value={draft.to ?? ''} onInput={set('to')} />
      <div class="buttons filter-buttons">
        <button type="submit" class="button button-primary">
          Show
        </button>
        <a class="button" href={exportHref} download="chartwright-usage.csv">
          Export CSV
        </a>
      </div>
    </form>
  );
}

interface UsageFiguresProps {
  rows: readonly UsageDay[];
  projects: readonly Project[];
  metric: UsageMetric;
  onMetric: (metric: UsageMetric) => void;
}

function UsageFigures({ rows, projects, metric, onMetric }: UsageFiguresProps) {
  const projectName = (id: string) => projects.find((project) => project.id === id)?.name ?? id;
  return (
    <section class="panel" aria-labelledby="usage-chart-title">
      <div class="panel-head">
        <h2 id="usage-chart-title">{METRIC_LABELS[metric]} per day</h2>
        <div class="field field-inline">
          <label for="usage-metric">Chart</label>
          <select
            id="usage-metric"
            value={metric}
            onChange={(event) => onMetric(event.currentTarget.value as UsageMetric)}
          >
            {METRICS.map((choice) => (
              <option key={choice} value={choice}>
                {METRIC_LABELS[choice]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <UsageChart rows={rows} metric={metric} />
      {rows.length > 0 && (
        <table class="records">
          <caption>Usage per project, environment and UTC day</caption>
          <thead>
            <tr>
              {['Day', 'Project', 'Environment', ...METRICS.map((name) => METRIC_LABELS[name])].map((title) => (
                <th key={title} scope="col">
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.projectId} ${row.environment} ${row.day}`}>
                <th scope="row" data-label="Day" class="nowrap">
                  {row.day}
                </th>
                <td data-label="Project">{projectName(row.projectId)}</td>
                <td data-label="Environment">{row.environment}</td>
                {METRICS.map((name) => (
                  <td key={name} data-label={METRIC_LABELS[name]} class="number">
                    {metricValue(row, name)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
