import { useEffect } from 'preact/hooks';

import type { Route } from '../../router.js';
import { PageTitle } from '../layout.js';
import { AdminTokensPage } from './admin-tokens.js';
import { AuditPage } from './audit.js';
import { KeysPage } from './keys.js';
import { MembersPage } from './members.js';
import { OrganisationPage } from './organisation.js';
import { PartnersPage } from './partners.js';
import { ProjectsPage } from './projects.js';
import { UsagePage } from './usage.js';

/** The page a route names, for a signed-in member. */
export function SignedInPage({ route }: { route: Route }) {
  switch (route.page) {
    case 'projects':
      return <ProjectsPage />;
    case 'keys':
      return <KeysPage projectId={route.projectId} />;
    case 'partners':
      return <PartnersPage projectId={route.projectId} />;
    case 'usage':
      return <UsagePage />;
    case 'audit':
      return <AuditPage />;
    case 'members':
      return <MembersPage />;
    case 'organisation':
      return <OrganisationPage />;
    case 'admin-tokens':
      return <AdminTokensPage />;
    case 'sign-in':
    case 'setup':
    case 'invitation':
      return <SignedInAlready />;
    case 'not-found':
      return (
        <>
          <PageTitle title="No such page" />
          <p>
            This address is not a page of the console. Go to <a href="#/projects">Projects</a>.
          </p>
        </>
      );
  }
}

/** Signing in again while signed in: straight to the projects. */
function SignedInAlready() {
  useEffect(() => window.location.replace('#/projects'), []);
  return null;
}
