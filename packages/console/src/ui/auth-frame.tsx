import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

/** The pages before a session: one narrow card, titled, on its own. */
export function AuthFrame({ title, children }: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} — Chartwright console`;
  }, [title]);
  return (
    <main class="auth" id="main">
      <p class="brand">Chartwright console</p>
      <section class="auth-card" aria-labelledby="auth-title">
        <h1 id="auth-title">{title}</h1>
        {children}
      </section>
    </main>
  );
}
