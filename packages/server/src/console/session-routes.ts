import type { FastifyReply, FastifyRequest } from 'fastify';

import { AppError } from '../errors.js';
import { enforceRateLimit, failuresFromAddress, MINUTE_MS, throttleFailures } from '../http/rate-limit.js';
import { route, type Area } from '../http/route.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { ConsoleMemberRow } from '../store/console-members.js';
import type { SessionCookie } from './console-guard.js';
import type { ConsoleMembers } from './members.js';
import type { ConsolePrincipal } from './principal.js';
import type { ConsoleSessions, ResolvedSession } from './sessions.js';
import type { SingleSignOn } from './single-sign-on.js';

const FIFTEEN_MINUTES_MS = 15 * 60_000;

export interface ConsoleSessionRouteOptions {
  members: ConsoleMembers;
  sso: SingleSignOn;
  sessions: ConsoleSessions;
  cookie: SessionCookie;
  rateLimiter: RateLimiter;
  /** Failed sign-ins per e-mail in 15 minutes; ten times as many per client address. */
  signInFailuresPer15Minutes: number;
  /** Failed attempts per client address per minute at the link routes. */
  failuresPerMinute: number;
}

/**
 * Starts a session for `member`: a new id whatever cookie came with the request (a session id
 * planted before sign-in is never adopted, and its session, if any, ends).
 */
async function signIn(
  options: ConsoleSessionRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  member: ConsoleMemberRow,
) {
  const presented = options.cookie.read(request);
  if (presented !== undefined && presented !== '') {
    const earlier = await options.sessions.resolve(presented);
    if (typeof earlier === 'object') await options.sessions.end(earlier.session.id_hash);
  }
  const { id, session } = await options.sessions.start(member);
  options.cookie.set(reply, id);
  return options.sessions.view({ session, member: { ...member, last_sign_in_at: session.created_at } });
}

/** Signing in: the open routes that make a session (setup, invitations, passwords). */
export function consoleSignInRoutes(open: Area<'none', null>, options: ConsoleSessionRouteOptions): void {
  const { members, rateLimiter } = options;
  // Setup and invitation links are 256-bit secrets, but an unknown one is still a wrong guess.
  const withLink = <T>(request: FastifyRequest, reply: FastifyReply, run: () => Promise<T>) =>
    throttleFailures(
      reply,
      rateLimiter,
      {
        ...failuresFromAddress(
          'console_link_failures_address',
          `console-link-failures:${request.ip}`,
          options.failuresPerMinute,
        ),
        counts: (error) => error.code === 'console_link_invalid',
      },
      run,
    );

  route(open, 'inspectConsoleLink', ({ body, request, reply }) =>
    withLink(request, reply, () => members.inspect(body.token)),
  );
  route(open, 'completeConsoleSetup', ({ body, request, reply }) =>
    withLink(request, reply, async () => signIn(options, request, reply, await members.completeSetup(body))),
  );
  route(open, 'acceptConsoleInvitation', ({ body, request, reply }) =>
    withLink(request, reply, async () => signIn(options, request, reply, await members.acceptInvitation(body))),
  );

  passwordSignInRoute(open, options);
  singleSignOnRoutes(open, options);
}

function passwordSignInRoute(open: Area<'none', null>, options: ConsoleSessionRouteOptions): void {
  const { members, sso, rateLimiter } = options;
  route(open, 'signInToConsole', async ({ body, request, reply }) => {
    const perEmail = {
      limiter: 'console_sign_in_email' as const,
      subject: `console-sign-in:${body.email.trim().toLowerCase()}`,
      limit: options.signInFailuresPer15Minutes,
      windowMs: FIFTEEN_MINUTES_MS,
      refusal: 'Too many failed sign-ins for this e-mail address; try again later.',
    };
    const perAddress = {
      limiter: 'console_sign_in_address' as const,
      subject: `console-sign-in-address:${request.ip}`,
      limit: options.signInFailuresPer15Minutes * 10,
      windowMs: FIFTEEN_MINUTES_MS,
      refusal: 'Too many failed sign-ins from this address; try again later.',
    };
    const member = await throttleFailures(reply, rateLimiter, perAddress, () =>
      throttleFailures(reply, rateLimiter, perEmail, async () => {
        const found = await members.authenticate(body.email, body.password);
        if (found === null) throw new AppError('invalid_credentials', 'The e-mail or password is wrong.');
        return found;
      }),
    );
    // Told only once the password is right, so it says nothing about who is a member.
    if (!(await sso.passwordAllowed(member))) {
      throw new AppError('sso_required', 'The organisation signs members in with single sign-on only.');
    }
    return signIn(options, request, reply, member);
  });
}

function singleSignOnRoutes(open: Area<'none', null>, options: ConsoleSessionRouteOptions): void {
  const { sso, rateLimiter } = options;
  // Every start counts, answered or not: each stores a sign-in waiting at the provider, and an
  // address probing which e-mails have single sign-on learns as little as one guessing passwords.
  route(open, 'startConsoleSso', async ({ body, request, reply }) => {
    const decision = await rateLimiter.hit(`console-sso-start:${request.ip}`, options.failuresPerMinute, MINUTE_MS);
    enforceRateLimit(
      reply,
      decision,
      'console_sso_start_address',
      'Too many single sign-on attempts from this address; try again later.',
    );
    return sso.start(body.email);
  });

  // The provider sends the browser here: answers are redirects into the console, never JSON.
  route(open, 'completeConsoleSso', async ({ request, reply }) => {
    const query = request.url.split('?')[1] ?? '';
    const outcome = await sso.complete(query, { ip: request.ip, requestId: request.id });
    if ('error' in outcome) return reply.redirect(`/console#/sign-in?sso_error=${outcome.error}`, 303);
    await signIn(options, request, reply, outcome);
    return reply.redirect('/console#/projects', 303);
  });
}

/** The signed-in session's own routes: who am I, sign out, sign out everywhere. */
export function consoleSessionRoutes(
  signedIn: Area<'console_session', ConsolePrincipal & { session: ResolvedSession }>,
  options: Pick<ConsoleSessionRouteOptions, 'sessions' | 'cookie'>,
): void {
  const { sessions, cookie } = options;

  route(signedIn, 'getConsoleSession', ({ principal }) => sessions.view(principal.session));
  route(signedIn, 'signOutOfConsole', async ({ principal, reply }) => {
    await sessions.end(principal.session.session.id_hash);
    cookie.clear(reply);
    return null;
  });
  route(signedIn, 'signOutEverywhere', async ({ principal, reply }) => {
    await sessions.endAll(principal.id);
    cookie.clear(reply);
    return null;
  });
}
