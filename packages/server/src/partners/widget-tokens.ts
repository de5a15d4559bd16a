import { CredentialCache } from '../auth/credential-cache.js';
import { generateId } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import type { PartnerRow } from '../store/partners.js';
import type { Repositories } from '../store/repositories.js';
import type { WidgetTokenSigner } from './signer.js';

export interface MintWidgetTokenInput {
  userEmail: string;
  emrUserId: string;
  emrSessionId?: string | undefined;
}

export interface MintedWidgetToken {
  token: string;
  expiresAt: string;
}

/**
 * Mints the widget session token for a partner's clinician. The clinician account is created on
 * first sight of (partner, emrUserId) and its e-mail updated whenever the EMR sends another, so the
 * EMR stays the source of truth for who the clinician is.
 */
/** Who a token is minted for: all minting needs of the clinician's row. */
interface Clinician {
  id: string;
  email: string;
}

export class WidgetTokenService {
  readonly #clinicians: CredentialCache<Clinician>;

  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly signer: WidgetTokenSigner,
    private readonly usage: UsageRecorder,
  ) {
    this.#clinicians = new CredentialCache(repositories.credentialChanges, clock);
  }

  async mint(partner: PartnerRow, input: MintWidgetTokenInput): Promise<MintedWidgetToken> {
    const now = this.clock.now();
    const clinician = await this.clinicianFor(partner, input, now);
    // Whole seconds, as the JWT carries them, so expiresAt and the token's exp always agree.
    const expiresAt = Math.floor((now + partner.token_lifetime_seconds * 1000) / 1000) * 1000;
    const token = await this.signer.sign(
      {
        sub: clinician.id,
        partner: partner.id,
        emrUserId: input.emrUserId,
        // Not spread in: a spread costs a runtime call per token, and sign() leaves undefined out.
        emrSessionId: input.emrSessionId,
      },
      generateId('wst'),
      expiresAt,
    );
    this.usage.count({ projectId: partner.project_id, environment: partner.environment }, 'widgetTokens');
    return { token, expiresAt: new Date(expiresAt).toISOString() };
  }

  /**
   * The clinician's id, from the cache when the EMR describes the clinician as last seen. Every
   * clinician write publishes a credential change, which empties the cache of every instance, so an
   * e-mail changed through another instance is written again here rather than taken as current.
   */
  private async clinicianFor(partner: PartnerRow, input: MintWidgetTokenInput, now: number): Promise<Clinician> {
    const key = `${partner.id}\n${input.emrUserId}`;
    const version = this.#clinicians.sync();
    const cached = this.#clinicians.get(key);
    if (cached?.email === input.userEmail) return cached;
    const saved = await this.repositories.clinicians.upsert({
      id: generateId('cln'),
      partner_id: partner.id,
      emr_user_id: input.emrUserId,
      email: input.userEmail,
      display_name: null,
      created_at: now,
      updated_at: now,
    });
    const clinician = { id: saved.id, email: saved.email };
    this.#clinicians.set(key, clinician, version);
    return clinician;
  }
}
