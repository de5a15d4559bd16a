import { describe, expect, it } from 'vitest';

import { microphonePolicy } from './microphone-access.js';

const policy = (allowed: readonly string[]) => ({ allowsFeature: (feature: string) => allowed.includes(feature) });

describe('microphonePolicy', () => {
  it('reads the permissions policy, or the older feature policy', () => {
    expect(microphonePolicy({ permissionsPolicy: policy(['microphone']) })).toBe('allowed');
    expect(microphonePolicy({ permissionsPolicy: policy(['camera']) })).toBe('blocked');
    expect(microphonePolicy({ featurePolicy: policy([]) })).toBe('blocked');
  });

  it('cannot tell without either', () => {
    expect(microphonePolicy({})).toBe('unknown');
  });
});
