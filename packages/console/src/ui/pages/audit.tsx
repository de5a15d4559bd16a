import type { AuditEvent } from '@chartwright/protocol';
import { useState } from 'preact/hooks';

import { auditExportHref, type AuditFilters } from '../../api/console-api.js';
import { useConsole } from '../console-context.js';
import { Select, TextInput } from '../fields.js';
import { FilterForm } from '../filter-form.js';
import { ACTION_LABELS, ACTOR_KIND_LABELS, formatTime } from '../format.js';
import { useAction, useResource } from '../hooks.js';
import { PageTitle } from '../layout.js';
import { Loaded } from '../loaded.js';
import { ErrorNotice } from '../notices.js';
import { RecordsTable } from '../records-table.js';

type Draft = Record<keyof AuditFilters, string>;
const EMPTY: Draft = { actorKind: '', actorId: '', resourceType: '', resourceId: '', action: '', since: '', until: '' };

/** A local date and time from the form (`datetime-local`) as the ISO 8601 instant the API takes; '' when unset or invalid. */
function instant(local: string): string {
  const time = new Date(local);
  return local === '' || Number.isNaN(time.getTime()) ? '' : time.toISOString();
}

const filtersOf = (draft: Draft): AuditFilters => ({
  ...draft,
  since: instant(draft.since),
  until: instant(draft.until),
});

/** The organisation's audit log, newest first, filtered, a page at a time, and its CSV export. */
export function AuditPage() {
  const { api } = useConsole();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [filters, setFilters] = useState<AuditFilters>({});
  const key = JSON.stringify(filters);
  const first = useResource(() => api.auditEvents(filters), key);
  const [more, setMore] = useState<{ key: string; events: AuditEvent[]; nextCursor: string | null } | null>(null);
  const older = useAction();
  const extra = more?.key === key ? more : null;
  const events = [...(first.data?.data ?? []), ...(extra?.events ?? [])];
  const nextCursor = extra === null ? (first.data?.nextCursor ?? null) : extra.nextCursor;
  const loadOlder = async () => {
    if (nextCursor === null) return;
    const page = await older.run(() => api.auditEvents(filters, nextCursor));
    if (page !== null) setMore({ key, events: [...(extra?.events ?? []), ...page.data], nextCursor: page.nextCursor });
  };
  return (
    <>
      <PageTitle title="Audit log" />
      <p class="muted">Every access to patient data and every change to keys, partners and members, newest first.</p>
      <AuditFilterForm draft={draft} onDraft={setDraft} onApply={() => setFilters(filtersOf(draft))} />
      <div class="buttons">
        <a class="button" href={auditExportHref(filters)} download="chartwright-audit-log.csv">
          Export CSV
        </a>
      </div>
      <Loaded resource={first}>
        {() => (
          <RecordsTable
            caption="Audit records, newest first"
            columns={COLUMNS}
            rows={events}
            row={(event) => <AuditRow key={event.id} event={event} />}
            empty="No records match."
          />
        )}
      </Loaded>
      <ErrorNotice error={older.error} />
      {nextCursor !== null && (
        <button type="button" class="button" disabled={older.busy} onClick={() => void loadOlder()}>
          Older records
        </button>
      )}
    </>
  );
}

/** Choices of a filter: any, or one of a record's labels. */
const choices = (labels: Readonly<Record<string, string>>) => [['', 'Any'] as const, ...Object.entries(labels)];
const ACTOR_KINDS = choices(ACTOR_KIND_LABELS);
const ACTIONS = choices(ACTION_LABELS);

function AuditFilterForm(props: { draft: Draft; onDraft: (draft: Draft) => void; onApply: () => void }) {
  const { draft, onDraft, onApply } = props;
  const set = (name: keyof Draft) => (value: string) => onDraft({ ...draft, [name]: value });
  return (
    <FilterForm label="Audit log filters" submitLabel="Filter" onApply={onApply}>
      <Select
        id="audit-actorKind"
        label="Actor kind"
        value={draft.actorKind}
        onChange={set('actorKind')}
        options={ACTOR_KINDS}
      />
      <TextInput id="audit-actor-id" label="Actor id" value={draft.actorId} onInput={set('actorId')} />
      <TextInput
        id="audit-resource-type"
        label="Resource type"
        value={draft.resourceType}
        onInput={set('resourceType')}
      />
      <TextInput id="audit-resource-id" label="Resource id" value={draft.resourceId} onInput={set('resourceId')} />
      <Select id="audit-action" label="Action" value={draft.action} onChange={set('action')} options={ACTIONS} />
      <TextInput id="audit-since" label="Since" type="datetime-local" value={draft.since} onInput={set('since')} />
      <TextInput id="audit-until" label="Until" type="datetime-local" value={draft.until} onInput={set('until')} />
    </FilterForm>
  );
}

const COLUMNS = ['When', 'Actor', 'Action', 'Resource', 'Outcome', 'Request'];

function AuditRow({ event }: { event: AuditEvent }) {
  return (
    <tr>
      <th scope="row" data-label="When">
        {formatTime(event.occurredAt)}
      </th>
      <td data-label="Actor">
        {ACTOR_KIND_LABELS[event.actor.kind]}
        {event.actor.id !== null && <span class="id">{event.actor.id}</span>}
      </td>
      <td data-label="Action">{ACTION_LABELS[event.action]}</td>
      <td data-label="Resource">
        {event.resourceType}
        {event.resourceId !== null && <span class="id">{event.resourceId}</span>}
      </td>
      <td data-label="Outcome" class={event.outcome === 'failure' ? 'outcome-failure' : undefined}>
        {event.outcome}
        {event.status !== null && ` (${event.status}${event.errorCode === null ? '' : ` ${event.errorCode}`})`}
      </td>
      <td data-label="Request">
        <span class="id">{event.requestId ?? '—'}</span>
      </td>
    </tr>
  );
}
