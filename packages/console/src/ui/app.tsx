import type { ConsoleSession } from '@chartwright/protocol';
import { useEffect, useMemo, useState } from 'preact/hooks';

import { ConsoleApi } from '../api/console-api.js';
import type { ConsoleApiError } from '../api/console-api-error.js';
import { hrefOf, isOpenRoute, type Route } from '../router.js';
import { ConsoleContext } from './console-context.js';
import { asApiError, useRoute } from './hooks.js';
import { Layout } from './layout.js';
import { ErrorNotice } from './notices.js';
import { InvitationPage, SetupPage } from './pages/link-pages.js';
import { SignedInPage } from './pages/signed-in-page.js';
import { SignInPage } from './pages/sign-in.js';

type SessionState =
  | { kind: 'loading' }
  | { kind: 'signed-in'; session: ConsoleSession }
  /** `ended`: a session was open and the service ended it (expired, signed out elsewhere, member removed). */
  | { kind: 'signed-out'; ended: boolean }
  | { kind: 'failed'; error: ConsoleApiError };

/** Replaces the current history entry, so a link's token does not stay in the back button's reach. */
const replaceRoute = (route: Route) => window.location.replace(hrefOf(route));

/**
 * The API, and the session behind the cookie: asked for once (not on a link's page, which makes
 * one), and dropped whenever the service says it has ended.
 */
function useSession(baseUrl: string, linkPage: boolean) {
  const [state, setState] = useState<SessionState>({ kind: 'loading' });
  const api = useMemo(
    () =>
      new ConsoleApi({
        baseUrl,
        onSignedOut: () => setState((previous) => ({ kind: 'signed-out', ended: previous.kind === 'signed-in' })),
      }),
    [baseUrl],
  );
  const loading = state.kind === 'loading';
  useEffect(() => {
    if (!loading || linkPage) return;
    api.session().then(
      (session) => setState({ kind: 'signed-in', session }),
      (error: unknown) => {
        const failure = asApiError(error);
        if (!failure.signedOut) setState({ kind: 'failed', error: failure });
      },
    );
  }, [api, loading, linkPage]);
  return { api, state, setState };
}

/** The console: the page the hash names for the signed-in member, or the page that signs them in. */
export function App({ baseUrl }: { baseUrl: string }) {
  const route = useRoute();
  const { api, state, setState } = useSession(baseUrl, route.page === 'setup' || route.page === 'invitation');
  const signedIn = (session: ConsoleSession) => {
    setState({ kind: 'signed-in', session });
    if (isOpenRoute(route)) replaceRoute({ page: 'projects' });
  };
  const signOut = async (everywhere: boolean) => {
    try {
      await api.signOut(everywhere);
      setState({ kind: 'signed-out', ended: false });
    } catch (error) {
      setState({ kind: 'failed', error: asApiError(error) });
    }
  };

  if (route.page === 'setup') return <SetupPage api={api} token={route.token} onSignedIn={signedIn} />;
  if (route.page === 'invitation') return <InvitationPage api={api} token={route.token} onSignedIn={signedIn} />;
  switch (state.kind) {
    case 'loading':
      return <p class="loading">Loading the console…</p>;
    case 'failed':
      return (
        <main class="auth">
          <ErrorNotice error={state.error} />
        </main>
      );
    case 'signed-out':
      return (
        <SignInPage
          api={api}
          onSignedIn={signedIn}
          {...(state.ended ? { reason: 'Your session has ended. Sign in again to continue.' } : {})}
          {...(route.page === 'sign-in' && route.ssoError !== undefined ? { ssoError: route.ssoError } : {})}
        />
      );
    case 'signed-in':
      return (
        <ConsoleContext.Provider value={{ api, session: state.session }}>
          <Layout route={route} onSignOut={(everywhere) => void signOut(everywhere)}>
            <SignedInPage route={route} />
          </Layout>
        </ConsoleContext.Provider>
      );
  }
}
