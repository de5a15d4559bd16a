import { startMicrophone } from '@chartwright/client';

import type { AudioInput } from './recording.js';

/** The browser's microphone, through the client library (16 kHz 16-bit mono into the realtime session). */
export const microphoneInput: AudioInput = {
  start: (realtimeSession, { onLevel, onError }) => startMicrophone(realtimeSession, { onLevel, onError }),
};

/** What a document says of its permissions policy (`document.permissionsPolicy`, or the older `featurePolicy`). */
export interface PolicyDocument {
  permissionsPolicy?: { allowsFeature(feature: string): boolean } | undefined;
  featurePolicy?: { allowsFeature(feature: string): boolean } | undefined;
}

/**
 * Whether the page may use the microphone at all. An iframe embedded without
 * `allow="microphone"` may not, whatever the user would answer; browsers without the policy API
 * ('unknown') reveal it only when getUserMedia is refused.
 */
export function microphonePolicy(document: PolicyDocument): 'allowed' | 'blocked' | 'unknown' {
  const policy = document.permissionsPolicy ?? document.featurePolicy;
  if (policy === undefined) return 'unknown';
  return policy.allowsFeature('microphone') ? 'allowed' : 'blocked';
}
