import { WidgetEmbedError } from './errors.js';
import { checkOptions } from './internal/check-options.js';
import { readWidgetMessage } from './internal/read-widget-message.js';
import { WidgetHost } from './internal/widget-host.js';
import type { MountWidgetOptions, WidgetHandle } from './types.js';

const DEFAULT_TITLE = 'Chartwright scribe';
const DEFAULT_DESTROY_GRACE_MS = 1000;

function appendFrame(container: Element, title: string): HTMLIFrameElement {
  const iframe = container.ownerDocument.createElement('iframe');
  iframe.title = title;
  iframe.allow = 'microphone';
  // The widget learns the host's origin from the referrer; the chart's path (often holding a
  // patient id) has no business leaving the EMR.
  iframe.referrerPolicy = 'origin';
  Object.assign(iframe.style, { width: '100%', height: '100%', border: '0', display: 'block' });
  container.append(iframe);
  return iframe;
}

/**
 * Mounts the Chartwright widget in `container` and speaks the host's side of its postMessage
 * protocol: only messages from the widget's origin and from this iframe's window are heard, and
 * messages are posted to that exact origin only.
 */
export function mountWidget(options: MountWidgetOptions): WidgetHandle {
  const { problems, location } = checkOptions(options);
  if (problems.length > 0 || location === null) throw WidgetEmbedError.embed('INVALID_OPTIONS', problems.join('; '));
  const { container } = options;
  const hostWindow = container.ownerDocument.defaultView ?? window;

  const iframe = appendFrame(container, options.title ?? DEFAULT_TITLE);

  const host = new WidgetHost({
    frame: {
      post: (message) => iframe.contentWindow?.postMessage(message, location.origin),
      load: (token) => {
        iframe.src = location.frameUrl(token);
      },
    },
    getToken: options.getToken,
    callbacks: options,
    patientContext: options.patientContext,
    noteConfig: options.noteConfig,
  });

  const listener = (event: MessageEvent<unknown>) => {
    if (event.origin !== location.origin || event.source === null || event.source !== iframe.contentWindow) return;
    const read = readWidgetMessage(event.data);
    if (read.kind === 'message') host.receive(read.message);
    else if (read.kind === 'invalid') {
      host.report(
        WidgetEmbedError.embed('INVALID_WIDGET_MESSAGE', `${read.type} was dropped: ${read.problems.join('; ')}`),
      );
    }
  };
  hostWindow.addEventListener('message', listener);
  void host.start();

  let destroyed: Promise<void> | null = null;
  return {
    iframe,
    update: (changes) => host.update(changes),
    setContext: (text, mode) => host.setContext(text, mode),
    close: () => host.close(),
    destroy: ({ graceMs = DEFAULT_DESTROY_GRACE_MS } = {}) => {
      destroyed ??= new Promise<void>((resolve) => {
        host.close();
        host.dispose();
        hostWindow.removeEventListener('message', listener);
        iframe.style.display = 'none';
        hostWindow.setTimeout(() => {
          iframe.remove();
          resolve();
        }, graceMs);
      });
      return destroyed;
    },
  };
}
