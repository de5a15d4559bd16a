import type { ConsoleLink, ConsoleRole, Invitation, IssuedInvitation, Member, MemberList } from '@chartwright/protocol';

import { generateId, generateSecret, hashSecret } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { ConsoleLinkRow, ConsoleMemberRow } from '../store/console-members.js';
import type { Repositories } from '../store/repositories.js';
import { decoyHash, hashPassword, verifyPassword } from './passwords.js';
import { requirePermission, type ConsolePrincipal } from './principal.js';

const HOUR_MS = 3_600_000;
/** The first-start link: short, as it makes an owner. */
export const SETUP_LINK_TTL_MS = HOUR_MS;
export const INVITATION_TTL_MS = 72 * HOUR_MS;

const iso = (ms: number) => new Date(ms).toISOString();

export const memberView = (row: ConsoleMemberRow): Member => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  createdAt: iso(row.created_at),
  lastSignInAt: row.last_sign_in_at === null ? null : iso(row.last_sign_in_at),
});

const invitationView = (row: ConsoleLinkRow): Invitation => ({
  id: row.id,
  email: row.email ?? '',
  role: row.role,
  createdAt: iso(row.created_at),
  expiresAt: iso(row.expires_at),
});

const normalisedEmail = (email: string) => email.trim().toLowerCase();

const memberExists = () =>
  new AppError('member_exists', 'This e-mail address is already a console member.', {
    details: [{ path: 'email', message: 'is already a console member' }],
  });

const invalidLink = () =>
  new AppError('console_link_invalid', 'This link is unknown, was already used, or has expired; ask for a new one.');

/** A one-time link: its token travels in the fragment, so it never reaches a server log or a Referer. */
export interface IssuedLink {
  url: string;
  expiresAt: string;
}

/**
 * Organisation members: the first-start setup link that makes the owner, invitations, passwords,
 * roles and removal. Links are stored by the SHA-256 of their token and consumed in the same
 * transaction that creates the member, so a link makes at most one.
 */
export class ConsoleMembers {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly publicBaseUrl: string,
  ) {}

  /**
   * Another organisation on the deployment (a hosting operator's second customer): its own
   * projects, members and admin tokens, none visible to the others. Its owner sets up with the link.
   */
  async createOrganisation(name: string): Promise<{ id: string; name: string; setupLink: IssuedLink }> {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 200) {
      throw AppError.invalidBody([{ path: 'name', message: 'must be 1 to 200 characters' }]);
    }
    const id = generateId('org');
    await this.repositories.organisations.insert({ id, name: trimmed, created_at: this.clock.now() });
    return { id, name: trimmed, setupLink: await this.issueSetupLink(id) };
  }

  async hasOwner(organisationId: string): Promise<boolean> {
    return (await this.repositories.consoleMembers.countOwners(organisationId)) > 0;
  }

  /**
   * A link, valid one hour, with which the owner sets their e-mail and password. Only for an
   * organisation with no owner yet; a new link voids the previous one.
   */
  async issueSetupLink(organisationId: string): Promise<IssuedLink> {
    const members = this.repositories.consoleMembers;
    await members.deleteLinksOfKind(organisationId, 'setup');
    return this.issueLink({ kind: 'setup', organisationId, email: null, role: 'owner' }, SETUP_LINK_TTL_MS);
  }

  async inspect(token: string): Promise<ConsoleLink> {
    const link = await this.liveLink(token);
    const organisation = await this.repositories.organisations.get(link.organisation_id);
    return {
      kind: link.kind,
      organisationName: organisation?.name ?? '',
      email: link.email,
      role: link.role,
      expiresAt: iso(link.expires_at),
    };
  }

  async completeSetup(input: {
    token: string;
    organisationName: string;
    name: string;
    email: string;
    password: string;
  }): Promise<ConsoleMemberRow> {
    const link = await this.liveLink(input.token);
    if (link.kind !== 'setup') throw invalidLink();
    const member = await this.join(link, { email: input.email, name: input.name, password: input.password });
    await this.repositories.organisations.rename(link.organisation_id, input.organisationName);
    return member;
  }

  async acceptInvitation(input: { token: string; name: string; password: string }): Promise<ConsoleMemberRow> {
    const link = await this.liveLink(input.token);
    if (link.kind !== 'invitation' || link.email === null) throw invalidLink();
    return this.join(link, { email: link.email, name: input.name, password: input.password });
  }

  /** The member whose password this is, or null; an unknown e-mail takes as long as a wrong password. */
  async authenticate(email: string, password: string): Promise<ConsoleMemberRow | null> {
    const member = await this.repositories.consoleMembers.findByEmail(normalisedEmail(email));
    const stored = member?.password_hash ?? (await decoyHash());
    const matches = await verifyPassword(password, stored);
    return matches && member?.password_hash != null ? member : null;
  }

  async list(principal: ConsolePrincipal): Promise<MemberList> {
    const members = await this.repositories.consoleMembers.list(principal.organisationId);
    const invitations = await this.repositories.consoleMembers.invitations(principal.organisationId, this.clock.now());
    return { members: members.map(memberView), invitations: invitations.map(invitationView) };
  }

  async invite(principal: ConsolePrincipal, input: { email: string; role: ConsoleRole }): Promise<IssuedInvitation> {
    requirePermission(principal, 'members:manage', 'invite members');
    const email = normalisedEmail(input.email);
    if ((await this.repositories.consoleMembers.findByEmail(email)) !== undefined) {
      throw memberExists();
    }
    const issued = await this.issueLink(
      { kind: 'invitation', organisationId: principal.organisationId, email, role: input.role },
      INVITATION_TTL_MS,
    );
    return { invitation: invitationView(issued.row), link: issued.url };
  }

  async cancelInvitation(principal: ConsolePrincipal, invitationId: string): Promise<void> {
    requirePermission(principal, 'members:manage', 'cancel invitations');
    if (!(await this.repositories.consoleMembers.deleteLink(invitationId, principal.organisationId))) {
      throw new AppError('invitation_not_found', `No open invitation has the id ${invitationId}.`);
    }
  }

  async setRole(principal: ConsolePrincipal, memberId: string, role: ConsoleRole): Promise<Member> {
    requirePermission(principal, 'members:manage', 'change roles');
    const member = await this.requireMember(principal, memberId);
    if (member.role === 'owner' && role !== 'owner') await this.keepAnOwner(member);
    await this.repositories.consoleMembers.setRole(member.id, role);
    return memberView({ ...member, role });
  }

  /** Removes the member; their sessions end with it, on every instance (each request reads its session). */
  async remove(principal: ConsolePrincipal, memberId: string): Promise<void> {
    requirePermission(principal, 'members:manage', 'remove members');
    const member = await this.requireMember(principal, memberId);
    if (member.role === 'owner') await this.keepAnOwner(member);
    await this.repositories.consoleMembers.delete(member.id);
  }

  private async keepAnOwner(member: ConsoleMemberRow): Promise<void> {
    if ((await this.repositories.consoleMembers.countOwners(member.organisation_id)) <= 1) {
      throw new AppError('last_owner', 'The organisation must keep an owner: make another member owner first.');
    }
  }

  private async requireMember(principal: ConsolePrincipal, memberId: string): Promise<ConsoleMemberRow> {
    const member = await this.repositories.consoleMembers.get(memberId);
    if (member?.organisation_id !== principal.organisationId) {
      throw new AppError('member_not_found', `No member of the organisation has the id ${memberId}.`);
    }
    return member;
  }

  private async issueLink(
    link: { kind: ConsoleLinkRow['kind']; organisationId: string; email: string | null; role: ConsoleRole },
    ttlMs: number,
  ): Promise<IssuedLink & { row: ConsoleLinkRow }> {
    const token = generateSecret('');
    const now = this.clock.now();
    const row: ConsoleLinkRow = {
      id: generateId(link.kind === 'setup' ? 'setup' : 'inv'),
      token_hash: hashSecret(token),
      kind: link.kind,
      organisation_id: link.organisationId,
      email: link.email,
      role: link.role,
      created_at: now,
      expires_at: now + ttlMs,
    };
    await this.repositories.consoleMembers.insertLink(row);
    const page = link.kind === 'setup' ? 'setup' : 'invitation';
    return { url: `${this.publicBaseUrl}/console#/${page}/${token}`, expiresAt: iso(row.expires_at), row };
  }

  private async liveLink(token: string): Promise<ConsoleLinkRow> {
    const link = await this.repositories.consoleMembers.findLink(hashSecret(token));
    if (link === undefined || link.expires_at <= this.clock.now()) throw invalidLink();
    return link;
  }

  private async join(
    link: ConsoleLinkRow,
    person: { email: string; name: string; password: string },
  ): Promise<ConsoleMemberRow> {
    const email = normalisedEmail(person.email);
    if ((await this.repositories.consoleMembers.findByEmail(email)) !== undefined) {
      throw memberExists();
    }
    const row: ConsoleMemberRow = {
      id: generateId('mem'),
      organisation_id: link.organisation_id,
      email,
      name: person.name.trim(),
      role: link.role,
      password_hash: await hashPassword(person.password),
      created_at: this.clock.now(),
      last_sign_in_at: null,
    };
    if (!(await this.repositories.consoleMembers.insertFromLink(row, link.id))) throw invalidLink();
    return row;
  }
}
