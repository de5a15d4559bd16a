import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

export interface PanelProps {
  /** Its heading, which names the region. */
  title: ComponentChildren;
  /** Beside the heading: a Copy button, a choice of what to show. */
  actions?: ComponentChildren;
  children: ComponentChildren;
}

/** A titled region of a page, on its own card. */
export function Panel({ title, actions, children }: PanelProps) {
  const id = useId();
  const heading = <h2 id={id}>{title}</h2>;
  return (
    <section class="panel" aria-labelledby={id}>
      {actions === undefined ? (
        heading
      ) : (
        <div class="panel-head">
          {heading}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}
