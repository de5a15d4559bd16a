import { randomBytes } from 'node:crypto';

import type { ConsoleSession } from '@chartwright/protocol';

import { hashSecret } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import type { ConsoleConfig } from '../config/console-config.js';
import type { ConsoleMemberRow, ConsoleSessionRow } from '../store/console-members.js';
import type { Repositories } from '../store/repositories.js';
import { memberView } from './members.js';

/** How often a session's last activity is written: idle expiry to the minute, without a write per request. */
const TOUCH_INTERVAL_MS = 60_000;

export interface ResolvedSession {
  session: ConsoleSessionRow;
  member: ConsoleMemberRow;
}

export type SessionLookup = ResolvedSession | 'expired' | 'unknown';

/**
 * Console sessions: a random 256-bit id in an HttpOnly cookie, stored only as its SHA-256, with a
 * CSRF token, an idle expiry and an absolute one. Every sign-in makes a new id (no fixation); every
 * request reads its session, so a removed member or a sign-out everywhere holds on every instance.
 */
export class ConsoleSessions {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly config: ConsoleConfig,
  ) {}

  async start(member: ConsoleMemberRow): Promise<{ id: string; session: ConsoleSessionRow }> {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const session: ConsoleSessionRow = {
      id_hash: hashSecret(id),
      member_id: member.id,
      csrf_token: randomBytes(32).toString('base64url'),
      created_at: now,
      last_seen_at: now,
      expires_at: now + this.config.sessionMaxSeconds * 1000,
    };
    await this.repositories.consoleMembers.insertSession(session);
    await this.repositories.consoleMembers.recordSignIn(member.id, now);
    return { id, session };
  }

  async resolve(id: string): Promise<SessionLookup> {
    const idHash = hashSecret(id);
    const found = await this.repositories.consoleMembers.findSession(idHash);
    if (found === undefined) return 'unknown';
    const now = this.clock.now();
    if (now >= found.session.expires_at || now - found.session.last_seen_at >= this.config.sessionIdleSeconds * 1000) {
      await this.repositories.consoleMembers.deleteSession(idHash);
      return 'expired';
    }
    if (now - found.session.last_seen_at >= TOUCH_INTERVAL_MS) {
      await this.repositories.consoleMembers.touchSession(idHash, now);
    }
    return found;
  }

  async end(idHash: string): Promise<void> {
    await this.repositories.consoleMembers.deleteSession(idHash);
  }

  async endAll(memberId: string): Promise<void> {
    await this.repositories.consoleMembers.deleteSessionsOf(memberId);
  }

  async view(resolved: ResolvedSession): Promise<ConsoleSession> {
    const organisation = await this.repositories.organisations.get(resolved.member.organisation_id);
    return {
      member: memberView(resolved.member),
      organisation: { id: resolved.member.organisation_id, name: organisation?.name ?? '' },
      csrfToken: resolved.session.csrf_token,
      expiresAt: new Date(resolved.session.expires_at).toISOString(),
      idleTimeoutSeconds: this.config.sessionIdleSeconds,
    };
  }
}
