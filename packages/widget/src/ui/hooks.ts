import { useEffect, useState } from 'preact/hooks';

import type { Store } from '../controller/store.js';

/** The store's current state; re-renders on every change. */
export function useStore<S extends object>(store: Pick<Store<S, never>, 'state' | 'subscribe'>): S {
  const [state, setState] = useState(store.state);
  useEffect(() => {
    setState(store.state);
    return store.subscribe(setState);
  }, [store]);
  return state;
}

/** `performance.now()`, refreshed every `intervalMs` while `active`. */
export function useTicker(active: boolean, intervalMs = 500): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!active) return;
    setNow(performance.now());
    const timer = setInterval(() => setNow(performance.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}
