import { z } from 'zod';

import { appBuildDirectory } from './app-builds.js';
import { integer } from './env-values.js';

export interface ConsoleConfig {
  /** The console app's build (index.html and assets/) served at /console. */
  readonly appDir: string;
  /** A console session ends after this long without a request… */
  readonly sessionIdleSeconds: number;
  /** …and this long after signing in, whatever happens. */
  readonly sessionMaxSeconds: number;
  /** Failed sign-ins per e-mail address (and, ten times as many, per client IP) in 15 minutes. */
  readonly signInFailuresPer15Minutes: number;
  /** Seals organisations' OpenID client secrets; null = generated into the key file. */
  readonly secretKey: string | null;
}

/** The console's environment variables, part of the service's (config.ts). */
export const CONSOLE_ENV = {
  CONSOLE_APP_DIR: z.string().trim().min(1, { error: 'must not be empty' }).optional(),
  CONSOLE_SESSION_IDLE_SECONDS: integer(60, 86_400).default(1800),
  CONSOLE_SESSION_MAX_SECONDS: integer(300, 30 * 86_400).default(12 * 3600),
  CONSOLE_SIGN_IN_FAILURES_PER_15_MINUTES: integer(1, 1000).default(5),
  CONSOLE_SECRET_KEY: z.string().trim().min(32, { error: 'must be at least 32 characters long' }).optional(),
};

type ConsoleEnv = z.output<z.ZodObject<typeof CONSOLE_ENV>>;

export function consoleConfig(values: ConsoleEnv): ConsoleConfig {
  return Object.freeze({
    appDir: values.CONSOLE_APP_DIR ?? appBuildDirectory('@chartwright/console'),
    sessionIdleSeconds: values.CONSOLE_SESSION_IDLE_SECONDS,
    sessionMaxSeconds: values.CONSOLE_SESSION_MAX_SECONDS,
    signInFailuresPer15Minutes: values.CONSOLE_SIGN_IN_FAILURES_PER_15_MINUTES,
    secretKey: values.CONSOLE_SECRET_KEY ?? null,
  });
}
