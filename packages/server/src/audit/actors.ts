import type { Principal } from '../auth/principal.js';
import type { AuditActor } from './audit-log.js';

/** The actor an audit record names for a REST or realtime credential: the key, or the token and who minted it. */
export function credentialActor(principal: Principal): AuditActor {
  if (principal.kind === 'api_key') {
    return {
      kind: 'api_key',
      id: principal.apiKeyId,
      projectId: principal.projectId,
      environment: principal.environment,
      partnerId: null,
    };
  }
  return {
    kind: 'realtime_token',
    id: principal.tokenId,
    projectId: principal.projectId,
    environment: principal.environment,
    partnerId: principal.issuer.kind === 'partner' ? principal.issuer.id : null,
  };
}
