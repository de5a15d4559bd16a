import { useState } from 'preact/hooks';

import { hrefOf } from '../../router.js';
import { useConsole } from '../console-context.js';
import { TextInput } from '../fields.js';
import { formatTime } from '../format.js';
import { useResource, useSubmit } from '../hooks.js';
import { PageTitle } from '../layout.js';
import { Loaded } from '../loaded.js';
import { ErrorNotice } from '../notices.js';
import { RecordsTable } from '../records-table.js';

/** The organisation's projects, each with its keys and partners; a form to add one for those who may. */
export function ProjectsPage() {
  const { api, can } = useConsole();
  const projects = useResource(() => api.projects(), 'projects');
  return (
    <>
      <PageTitle title="Projects" />
      <p class="muted">Each project has a sandbox (test) and a production (live) environment with keys of its own.</p>
      <Loaded resource={projects}>
        {(data) => (
          <RecordsTable
            caption="Projects"
            columns={['Project', 'Created', 'Settings']}
            rows={data}
            row={(project) => (
              <tr key={project.id}>
                <th scope="row" data-label="Project">
                  {project.name}
                  <span class="id">{project.id}</span>
                </th>
                <td data-label="Created">{formatTime(project.createdAt)}</td>
                <td data-label="Settings">
                  <span class="links">
                    <a href={hrefOf({ page: 'keys', projectId: project.id })}>API keys</a>
                    <a href={hrefOf({ page: 'partners', projectId: project.id })}>Partners</a>
                  </span>
                </td>
              </tr>
            )}
            empty="No projects yet."
          />
        )}
      </Loaded>
      {can('projects:create') && <CreateProject onCreated={projects.reload} />}
    </>
  );
}

function CreateProject({ onCreated }: { onCreated: () => void }) {
  const { api } = useConsole();
  const [name, setName] = useState('');
  const { busy, error, onSubmit } = useSubmit(
    () => api.createProject(name),
    () => {
      setName('');
      onCreated();
    },
  );
  return (
    <form class="panel inline-form" aria-labelledby="create-project-title" onSubmit={onSubmit} noValidate>
      <h2 id="create-project-title">New project</h2>
      <TextInput
        id="project-name"
        label="Project name"
        value={name}
        onInput={setName}
        problems={error?.problemsOf('name')}
      />
      <ErrorNotice error={error} fields={['name']} />
      <button type="submit" class="button button-primary" disabled={busy}>
        Create project
      </button>
    </form>
  );
}
