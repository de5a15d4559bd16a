import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

import { ConsoleApiError } from '../api/console-api-error.js';
import { parseRoute, type Route } from '../router.js';

/** The route of the page's hash, following every change (links, back and forward). */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}

/** Anything thrown, as the console shows it: the service's error, or one saying the app failed. */
export function asApiError(error: unknown): ConsoleApiError {
  return error instanceof ConsoleApiError
    ? error
    : new ConsoleApiError('Something went wrong in the console; reload the page.', 'internal_error', 0, [], {
        cause: error,
      });
}

export interface Resource<T> {
  /** The last answer; kept while reloading, so a list does not flash empty. */
  data: T | null;
  error: ConsoleApiError | null;
  loading: boolean;
  reload: () => void;
}

/** Loads `load()` now, again whenever `key` changes or on reload(); an answer overtaken by a newer load is dropped. */
export function useResource<T>(load: () => Promise<T>, key: string): Resource<T> {
  const [state, setState] = useState<{ data: T | null; error: ConsoleApiError | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    latest.current().then(
      (data) => current && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        current && setState((previous) => ({ ...previous, error: asApiError(error), loading: false })),
    );
    return () => {
      current = false;
    };
  }, [key, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...state, reload };
}

export interface Action {
  busy: boolean;
  error: ConsoleApiError | null;
  /** Runs `work` unless one is running; its error is kept for the form to show. Resolves to its result, or null after an error. */
  run: <T>(work: () => Promise<T>) => Promise<T | null>;
}

/** One change at a time from a form or dialog, with its busy state and its error. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const running = useRef(false);
  const run = useCallback(async <T>(work: () => Promise<T>): Promise<T | null> => {
    if (running.current) return null;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      return await work();
    } catch (caught) {
      setError(asApiError(caught));
      return null;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}

export interface Submit extends Omit<Action, 'run'> {
  /** The form's onSubmit: no page load; `work`, then what follows it. */
  onSubmit: (event: Event) => void;
}

/** A form's submission: `work` as one action (busy state, error kept for the form), then `onDone` with its result. */
export function useSubmit<T>(work: () => Promise<T>, onDone: (result: T) => void): Submit {
  const { busy, error, run } = useAction();
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void run(work).then((result) => {
      if (result !== null) onDone(result);
    });
  };
  return { busy, error, onSubmit };
}

export interface DialogState<D> {
  /** The dialog open on the page, if any. */
  dialog: D | null;
  open: (dialog: D) => void;
  close: () => void;
  /** Closes it after its change, and reloads what the change touched. */
  done: () => void;
}

/** Which of a page's dialogs is open; one at a time, as the native modal <dialog> allows. */
export function useDialog<D>(reload: () => void): DialogState<D> {
  const [dialog, setDialog] = useState<D | null>(null);
  return {
    dialog,
    open: setDialog,
    close: () => setDialog(null),
    done: () => {
      setDialog(null);
      reload();
    },
  };
}

/** Moves focus to the element once it is shown (when `enabled`): the first thing to read when a dialog's content changes. */
export function useFocusOnMount<T extends HTMLElement>(enabled = true) {
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    if (enabled) ref.current?.focus();
  }, []);
  return ref;
}
