import { timingSafeEqual } from 'node:crypto';

import { CREDENTIAL_PREFIXES, CSRF_HEADER, parseCredentialPrefix } from '@chartwright/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { credentialFromAuthorization } from '../auth/authenticator.js';
import { AppError } from '../errors.js';
import { enforceRateLimit, failuresFromAddress, MINUTE_MS, throttleFailures } from '../http/rate-limit.js';
import type { Guard } from '../http/route.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { AdminTokens } from './admin-tokens.js';
import type { ConsolePrincipal } from './principal.js';
import type { ConsoleSessions, ResolvedSession } from './sessions.js';

export interface ConsoleGuardOptions {
  sessions: ConsoleSessions;
  adminTokens: AdminTokens;
  cookie: SessionCookie;
  rateLimiter: RateLimiter;
  failuresPerMinute: number;
  /** Management requests per organisation per minute, people and automation together. */
  limitPerMinute: number;
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
 * it), Path=/ (the console at /console, its API under /api/v1). Behind HTTPS it is Secure with the
 * `__Host-` prefix, which browsers only accept from that host, so a sibling subdomain cannot plant one.
 */
export class SessionCookie {
  readonly name: string;
  private readonly attributes: string;

  constructor(publicBaseUrl: string) {
    const secure = publicBaseUrl.startsWith('https:');
    this.name = secure ? '__Host-cw_console' : 'cw_console';
    this.attributes = `Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  }

  read(request: FastifyRequest): string | undefined {
    const header = request.headers.cookie;
    if (header === undefined) return undefined;
    for (const part of header.split(';')) {
      const separator = part.indexOf('=');
      if (separator > 0 && part.slice(0, separator).trim() === this.name) return part.slice(separator + 1).trim();
    }
    return undefined;
  }

  set(reply: FastifyReply, id: string): void {
    reply.header('set-cookie', `${this.name}=${id}; ${this.attributes}`);
  }

  clear(reply: FastifyReply): void {
    reply.header('set-cookie', `${this.name}=; ${this.attributes}; Max-Age=0`);
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function sameToken(sent: string | string[] | undefined, expected: string): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const memberPrincipal = ({ member, session }: ResolvedSession): ConsolePrincipal => ({
  kind: 'console_member',
  id: member.id,
  label: member.email,
  organisationId: member.organisation_id,
  role: member.role,
  sessionIdHash: session.id_hash,
});

/** The signed-in member of the request's cookie; changes also need the session's CSRF token. */
async function sessionPrincipal(
  request: FastifyRequest,
  reply: FastifyReply,
  options: ConsoleGuardOptions,
): Promise<{ principal: ConsolePrincipal; resolved: ResolvedSession }> {
  const id = options.cookie.read(request);
  if (id === undefined || id === '') {
    throw new AppError('console_authentication_required', 'Sign in to the console, or send an admin token.');
  }
  const resolved = await options.sessions.resolve(id);
  if (resolved === 'expired' || resolved === 'unknown') {
    options.cookie.clear(reply);
    throw new AppError('console_session_expired', 'The console session has ended; sign in again.');
  }
  // The cookie rides along on any request the browser makes to this host; the token only on the
  // console's own, read from its session answer, which no other origin can read.
  if (!SAFE_METHODS.has(request.method) && !sameToken(request.headers[CSRF_HEADER], resolved.session.csrf_token)) {
    throw new AppError('csrf_token_invalid', `Send the session's CSRF token in the ${CSRF_HEADER} header.`);
  }
  return { principal: memberPrincipal(resolved), resolved };
}

async function adminTokenPrincipal(
  request: FastifyRequest,
  reply: FastifyReply,
  options: ConsoleGuardOptions,
): Promise<ConsolePrincipal> {
  const credential = credentialFromAuthorization(request.headers.authorization, 'admin token');
  if (parseCredentialPrefix(credential) !== null) {
    throw new AppError(
      'project_credential_not_allowed',
      'Project keys (sk_) and realtime tokens (svc_rt_) cannot manage the organisation; use the console or an admin token.',
    );
  }
  const failures = failuresFromAddress(
    'admin_token_failures_address',
    `console-token-failures:${request.ip}`,
    options.failuresPerMinute,
  );
  return throttleFailures(reply, options.rateLimiter, failures, () => {
    if (!credential.startsWith(CREDENTIAL_PREFIXES.adminToken)) {
      throw new AppError('invalid_admin_token', 'The admin token is not one this service issued.');
    }
    return options.adminTokens.authenticate(credential);
  });
}

/**
 * Management routes: an admin token in Authorization, else the console session cookie; then the
 * organisation's request rate, so a runaway script cannot take the instance.
 */
export function consoleGuard(options: ConsoleGuardOptions): Guard<'console', ConsolePrincipal> {
  return {
    auth: 'console',
    authenticate: async (request, reply) => {
      const principal =
        request.headers.authorization === undefined
          ? (await sessionPrincipal(request, reply, options)).principal
          : await adminTokenPrincipal(request, reply, options);
      const key = `console:${principal.organisationId}`;
      const decision = await options.rateLimiter.hit(key, options.limitPerMinute, MINUTE_MS);
      enforceRateLimit(
        reply,
        decision,
        'management_organisation',
        `Rate limit of ${decision.limit} management requests per minute exceeded.`,
      );
      return principal;
    },
    // The organisation's, whichever member or admin token sends them.
    idempotencyScope: (principal) => `organisation:${principal.organisationId}`,
  };
}

/** The session's own routes (who am I, sign out): the cookie only. */
export function consoleSessionGuard(
  options: ConsoleGuardOptions,
): Guard<'console_session', ConsolePrincipal & { session: ResolvedSession }> {
  return {
    auth: 'console_session',
    authenticate: async (request, reply) => {
      const { principal, resolved } = await sessionPrincipal(request, reply, options);
      return { ...principal, session: resolved };
    },
  };
}
