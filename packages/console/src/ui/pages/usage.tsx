import type { Project, UsageDay, UsageMetric } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { usageExportHref, type UsageFilters } from '../../api/console-api.js';
import { useConsole } from '../console-context.js';
import { Select, TextInput } from '../fields.js';
import { FilterForm } from '../filter-form.js';
import { ENVIRONMENT_LABELS, keysOf } from '../format.js';
import { useResource } from '../hooks.js';
import { PageTitle } from '../layout.js';
import { Loaded } from '../loaded.js';
import { Panel } from '../panel.js';
import { RecordsTable } from '../records-table.js';
import { METRIC_LABELS, metricValue, UsageChart } from '../usage-chart.js';

const METRICS = keysOf(METRIC_LABELS);
const ENVIRONMENT_CHOICES = [['', 'Both'] as const, ...Object.entries(ENVIRONMENT_LABELS)];
const COLUMNS = ['Day', 'Project', 'Environment', ...METRICS.map((name) => METRIC_LABELS[name])];

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
      <Loaded resource={usage}>
        {(rows) => <UsageFigures rows={rows} projects={projects.data ?? []} metric={metric} onMetric={setMetric} />}
      </Loaded>
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
  const projectChoices = [['', 'All projects'] as const, ...projects.map(({ id, name }) => [id, name] as const)];
  return (
    <FilterForm
      label="Usage filters"
      submitLabel="Show"
      onApply={onApply}
      actions={
        <a class="button" href={exportHref} download="chartwright-usage.csv">
          Export CSV
        </a>
      }
    >
      <Select
        id="usage-project"
        label="Project"
        value={draft.projectId ?? ''}
        onChange={set('projectId')}
        options={projectChoices}
      />
      <Select
        id="usage-environment"
        label="Environment"
        value={draft.environment ?? ''}
        onChange={set('environment')}
        options={ENVIRONMENT_CHOICES}
      />
      <TextInput id="usage-from" label="From (UTC day)" type="date" value={draft.from ?? ''} onInput={set('from')} />
      <TextInput id="usage-to" label="To (UTC day)" type="date" value={draft.to ?? ''} onInput={set('to')} />
    </FilterForm>
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
    <Panel
      title={`${METRIC_LABELS[metric]} per day`}
      actions={
        <Select
          id="usage-metric"
          label="Chart"
          value={metric}
          onChange={(chosen) => onMetric(chosen as UsageMetric)}
          options={Object.entries(METRIC_LABELS)}
          inline
        />
      }
    >
      <UsageChart rows={rows} metric={metric} />
      <RecordsTable
        caption="Usage per project, environment and UTC day"
        captionShown
        columns={COLUMNS}
        rows={rows}
        row={(row) => (
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
        )}
      />
    </Panel>
  );
}
