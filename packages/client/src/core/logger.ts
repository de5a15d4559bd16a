import type { Logger } from './context.js';

/**
 * The default logger: warnings and errors go to the console, because the library's few warnings
 * (a permanent key seen in a browser) must reach a developer who configured nothing. Debug and
 * info lines (retries, reconnects) appear only through an injected logger.
 */
export const consoleLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  // eslint-disable-next-line no-console -- the library's only console output, by design (see above)
  warn: (message, fields) => console.warn(`[chartwright] ${message}`, ...(fields === undefined ? [] : [fields])),
  // eslint-disable-next-line no-console -- as above
  error: (message, fields) => console.error(`[chartwright] ${message}`, ...(fields === undefined ? [] : [fields])),
};
