import type { ComponentChildren } from 'preact';

import type { Resource } from './hooks.js';
import { ErrorNotice } from './notices.js';

/**
 * What a page shows of something it loads: why it failed, and what came once it has (kept while it
 * reloads); nothing before the first answer, which on loopback comes before a spinner would help.
 */
export function Loaded<T>({ resource, children }: { resource: Resource<T>; children: (data: T) => ComponentChildren }) {
  return (
    <>
      <ErrorNotice error={resource.error} />
      {resource.data !== null && children(resource.data)}
    </>
  );
}
