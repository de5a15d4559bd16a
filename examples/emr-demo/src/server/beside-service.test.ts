import { describe, expect, it } from 'vitest';

import { demoSettings } from './beside-service.js';

describe('demoSettings', () => {
  it('runs the demo by default, on the port after the service’s', () => {
    expect(demoSettings({})).toEqual({ enabled: true, port: null });
    expect(demoSettings({ DEMO_EMR: '', DEMO_EMR_PORT: ' ' })).toEqual({ enabled: true, port: null });
  });

  it.each(['false', 'FALSE', '0', 'no', ' no '])('DEMO_EMR=%j leaves it out', (value) => {
    expect(demoSettings({ DEMO_EMR: value, DEMO_EMR_PORT: '9000' })).toEqual({ enabled: false });
  });

  it('takes DEMO_EMR_PORT', () => {
    expect(demoSettings({ DEMO_EMR: 'true', DEMO_EMR_PORT: '9000' })).toEqual({ enabled: true, port: 9000 });
  });

  it('names every bad setting at once', () => {
    expect(() => demoSettings({ DEMO_EMR: 'maybe', DEMO_EMR_PORT: '0' })).toThrow(
      'DEMO_EMR: must be true or false; DEMO_EMR_PORT: must be a whole number from 1 to 65535',
    );
    expect(() => demoSettings({ DEMO_EMR_PORT: '80a' })).toThrow(
      'DEMO_EMR_PORT: must be a whole number from 1 to 65535',
    );
  });
});
