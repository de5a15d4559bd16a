import { useRef } from 'preact/hooks';

import { CopyButton } from '../copy-button.js';
import { Panel } from '../panel.js';

/**
 * What a partner's backend runs to mint a widget token (docs/widget-protocol.md § 2): Node's fetch,
 * the key from the server's environment, never from a page.
 */
function widgetTokenSnippet(baseUrl: string): string {
  return `// On your EMR's server: the partner key must never reach a browser.
const response = await fetch('${baseUrl}/api/widget/token', {
  method: 'POST',
  headers: {
    'X-Partner-Key': process.env.CHARTWRIGHT_PARTNER_KEY,
    'Content-Type': 'application/json',
  },
  body: JSON.stringify({
    userEmail: clinician.email, // creates or updates the clinician's account
    emrUserId: clinician.id, // your stable id for the clinician
    emrSessionId: visit.id, // optional: the same id reopens the same scribe
  }),
});
const { success, data, error } = await response.json();
if (!success) throw new Error(\`widget token: \${error.code}\`);
// data.token goes to the page that embeds /widget?token=…; data.expiresAt says when to mint another.
`;
}

/** The snippet, copyable, for the partners page. */
export function PartnerSnippet() {
  const code = useRef<HTMLElement>(null);
  const snippet = widgetTokenSnippet(window.location.origin);
  const select = () => {
    const selection = window.getSelection();
    if (code.current !== null && selection !== null) selection.selectAllChildren(code.current);
  };
  return (
    <Panel
      title="Minting widget tokens"
      actions={<CopyButton text={snippet} label="Copy the widget token snippet" selectText={select} />}
    >
      <p class="muted">
        The EMR’s server asks for a widget token with its partner key (Node.js 18 or later), then embeds the widget with
        it.
      </p>
      <pre class="snippet" tabIndex={0} aria-label="Widget token snippet (Node.js)">
        <code ref={code}>{snippet}</code>
      </pre>
    </Panel>
  );
}
