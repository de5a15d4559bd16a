/**
 * V8 settings the service process runs with, applied when this module is evaluated: the service's
 * entry points import it before anything else, so no object is allocated under the defaults first.
 *
 * Allocation-site pretenuring off. V8 watches which object literals' objects survive minor
 * collections and, for a site whose objects mostly do, allocates the site's objects in the old
 * generation from then on. During start-up many sites are judged that way; in about a third of
 * the starts (8 of 28 measured) one of them also allocates per request, and each request then
 * leaves an old object pointing at its young ones (body, headers, strings), which keeps them
 * through every minor collection until a full one: 14% of what a request allocates survived each
 * minor collection instead of 0.2%, a full collection ran every 0.8 s, and a request cost 1.7–1.9
 * times the CPU (docs/performance.md, "Two garbage-collection regimes"). A service's long-lived
 * objects are made once at start, where copying them out of the young generation costs nothing
 * worth saving.
 * The note writer's worker processes gain too (6% more notes a second measured in one process),
 * so the worker supervisor starts every worker process with these flags on its command line.
 */
import { setFlagsFromString } from 'node:v8';

export const SERVICE_V8_FLAGS = ['--no-allocation-site-pretenuring'] as const;

for (const flag of SERVICE_V8_FLAGS) setFlagsFromString(flag);
