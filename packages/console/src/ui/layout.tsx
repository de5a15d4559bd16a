import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

import { hrefOf, type Route } from '../router.js';
import { useConsole } from './console-context.js';

interface NavItem {
  label: string;
  route: Route;
  /** The pages the item stands for (a project's keys and partners belong to Projects). */
  pages: readonly Route['page'][];
}

const NAV: readonly NavItem[] = [
  { label: 'Projects', route: { page: 'projects' }, pages: ['projects', 'keys', 'partners'] },
  { label: 'Usage', route: { page: 'usage' }, pages: ['usage'] },
  { label: 'Audit log', route: { page: 'audit' }, pages: ['audit'] },
  { label: 'Members', route: { page: 'members' }, pages: ['members'] },
  { label: 'Organisation', route: { page: 'organisation' }, pages: ['organisation'] },
];
const ADMIN_TOKENS: NavItem = { label: 'Admin tokens', route: { page: 'admin-tokens' }, pages: ['admin-tokens'] };

export interface LayoutProps {
  route: Route;
  onSignOut: (everywhere: boolean) => void;
  children: ComponentChildren;
}

/** The signed-in frame: organisation and member, the sections, signing out, and the page. */
export function Layout({ route, onSignOut, children }: LayoutProps) {
  const { session, can } = useConsole();
  const items = can('admin_tokens:manage') ? [...NAV, ADMIN_TOKENS] : NAV;
  // A new page is announced by moving focus to its heading, as a page load would.
  useEffect(() => {
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [hrefOf(route)]);
  return (
    <div class="console">
      <header class="topbar">
        <p class="brand">
          Chartwright console <span class="organisation">{session.organisation.name}</span>
        </p>
        <div class="account">
          <span class="account-email">{session.member.email}</span>
          <button type="button" class="button button-small" onClick={() => onSignOut(false)}>
            Sign out
          </button>
          <button type="button" class="button button-small" onClick={() => onSignOut(true)}>
            Sign out everywhere
          </button>
        </div>
      </header>
      <nav class="nav" aria-label="Console sections">
        <ul>
          {items.map((item) => (
            <li key={item.label}>
              <a href={hrefOf(item.route)} aria-current={item.pages.includes(route.page) ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" class="page">
        {children}
      </main>
    </div>
  );
}

/** A page's title: its heading (focused when the page opens) and the document's title. */
export function PageTitle({ title, children }: { title: string; children?: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} — Chartwright console`;
  }, [title]);
  return (
    <div class="page-head">
      <h1 tabIndex={-1}>{title}</h1>
      {children}
    </div>
  );
}
