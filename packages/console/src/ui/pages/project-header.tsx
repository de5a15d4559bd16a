import { hrefOf } from '../../router.js';
import { useConsole } from '../console-context.js';
import { useResource } from '../hooks.js';
import { PageTitle } from '../layout.js';
import { Loaded } from '../loaded.js';

const SECTIONS = [
  { page: 'keys', label: 'API keys' },
  { page: 'partners', label: 'Partners' },
] as const;

/** A project's settings page heading: where it is (Projects › project › Settings) and its sections. */
export function ProjectHeader({ projectId, section }: { projectId: string; section: 'keys' | 'partners' }) {
  const { api } = useConsole();
  const projects = useResource(() => api.projects(), 'projects');
  const project = projects.data?.find((candidate) => candidate.id === projectId);
  const current = SECTIONS.find((candidate) => candidate.page === section)?.label ?? '';
  return (
    <>
      <nav class="breadcrumbs" aria-label="Breadcrumb">
        <a href={hrefOf({ page: 'projects' })}>Projects</a> › <span>{project?.name ?? projectId}</span> ›{' '}
        <span>Settings</span>
      </nav>
      <PageTitle title={current}>
        <ul class="tabs" aria-label="Project settings">
          {SECTIONS.map(({ page, label }) => (
            <li key={page}>
              <a href={hrefOf({ page, projectId })} aria-current={page === section ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </PageTitle>
      <Loaded resource={projects}>
        {() =>
          project === undefined && (
            <p class="callout callout-error" role="alert">
              No project of the organisation has the id {projectId}.
            </p>
          )
        }
      </Loaded>
    </>
  );
}
