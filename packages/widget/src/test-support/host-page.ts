import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An EMR page, as small as can be: it embeds the widget in an iframe (with allow="microphone"
 * unless told not to), records every message the widget posts from its origin, and sends messages
 * to it with that exact origin. A second page, to be loaded from another origin, posts to the
 * widget as a foreign site would.
 */
const HOST_PAGE = `<!doctype html>
<meta charset="utf-8">
<title>EMR test host</title>
<style>body { margin: 0 } iframe { border: 0; display: block; width: 100vw; height: 100vh }</style>
<script>
  const params = new URLSearchParams(location.search);
  const widgetOrigin = params.get('widgetOrigin');
  window.received = [];
  // When the iframe went in and when the widget first said WIDGET_READY (performance.now(), ms).
  window.timing = { inserted: null, ready: null };
  const iframe = document.createElement('iframe');
  iframe.title = 'Chartwright scribe';
  if (params.get('allow') !== 'none') iframe.allow = 'microphone';
  iframe.src = params.get('src');
  window.addEventListener('message', (event) => {
    if (event.origin !== widgetOrigin || event.source !== iframe.contentWindow) return;
    window.received.push(event.data);
    if (event.data?.type === 'WIDGET_READY') window.timing.ready ??= performance.now();
  });
  window.sendToWidget = (message) => iframe.contentWindow.postMessage(message, widgetOrigin);
  window.reloadWidget = (src) => { iframe.src = src; };
  document.addEventListener('DOMContentLoaded', () => {
    window.timing.inserted = performance.now();
    document.body.append(iframe);
    const foreign = params.get('foreign');
    if (foreign) {
      const intruder = document.createElement('iframe');
      intruder.title = 'foreign';
      intruder.src = foreign;
      document.body.append(intruder);
    }
  });
</script>
<body></body>
`;

/** Posts to the widget (the host's first frame) with any origin, as a foreign site embedded beside it could. */
const FOREIGN_PAGE = `<!doctype html>
<meta charset="utf-8">
<title>foreign</title>
<script>
  const widget = window.parent.frames[0];
  const messages = [
    { type: 'PATIENT_CONTEXT', patient: { id: 'intruder', name: 'Mallory Intruder' } },
    { type: 'PATIENT_CONTEXT', patient: {} },
    { type: 'CLOSE_WIDGET' },
  ];
  window.postForeign = () => { for (const message of messages) widget.postMessage(message, '*'); };
  window.postForeign();
</script>
`;

export interface HostServer {
  /** `http://localhost:<port>`: the EMR's origin, to register with the partner. */
  origin: string;
  /** The same server as another origin (`http://127.0.0.1:<port>`), for the foreign page. */
  foreignOrigin: string;
  /** The host page embedding `widgetSrc`. */
  pageUrl(widgetSrc: string, options?: { allowMicrophone?: boolean; foreign?: boolean }): string;
  close(): Promise<void>;
}

export async function startHostServer(): Promise<HostServer> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const body = path === '/' ? HOST_PAGE : path === '/foreign' ? FOREIGN_PAGE : null;
    response.writeHead(body === null ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://localhost:${port}`;
  const foreignOrigin = `http://127.0.0.1:${port}`;
  return {
    origin,
    foreignOrigin,
    pageUrl: (widgetSrc, options = {}) => {
      const query = new URLSearchParams({ src: widgetSrc, widgetOrigin: new URL(widgetSrc).origin });
      if (options.allowMicrophone === false) query.set('allow', 'none');
      if (options.foreign === true) query.set('foreign', `${foreignOrigin}/foreign`);
      return `${origin}/?${query.toString()}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
