import { permits, type ConsolePermission, type ConsoleSession } from '@chartwright/protocol';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

import type { ConsoleApi } from '../api/console-api.js';

/** What every signed-in page needs: the API, and who is signed in with which role. */
export interface Console {
  api: ConsoleApi;
  session: ConsoleSession;
}

export const ConsoleContext = createContext<Console | null>(null);

export interface SignedIn extends Console {
  /**
   * Whether the member's role allows a change: the console offers only what the role permits (the
   * service refuses the rest with 403 role_forbidden whatever the page shows).
   */
  can: (permission: ConsolePermission) => boolean;
}

export function useConsole(): SignedIn {
  const value = useContext(ConsoleContext);
  if (value === null) throw new Error('useConsole() outside a signed-in page');
  return { ...value, can: (permission) => permits(value.session.member.role, permission) };
}
