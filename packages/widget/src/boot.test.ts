import { describe, expect, it } from 'vitest';

import { readBoot } from './boot.js';

describe('readBoot', () => {
  it('reads the token from the URL and the service’s clock and framing origins from the page', () => {
    const boot = readBoot(
      '?token=eyJ.abc.def',
      JSON.stringify({ serverNow: 1_000_000, frameOrigins: ['https://emr.example.com'] }),
      999_000,
    );
    expect(boot).toEqual({ token: 'eyJ.abc.def', clockOffsetMs: 1000, frameOrigins: ['https://emr.example.com'] });
  });

  it('has no token for a missing or blank parameter', () => {
    expect(readBoot('', null, 0).token).toBeNull();
    expect(readBoot('?token=%20', null, 0).token).toBeNull();
  });

  it('runs on local time with no origins when the page’s data is missing or broken', () => {
    for (const data of [null, '', '{', 'null', '[]', JSON.stringify({ serverNow: 'soon', frameOrigins: 'x' })]) {
      expect(readBoot('?token=t', data, 5)).toEqual({ token: 't', clockOffsetMs: 0, frameOrigins: [] });
    }
  });

  it('keeps only the string origins', () => {
    expect(readBoot('', JSON.stringify({ frameOrigins: ['https://a.example', 3, null] }), 0).frameOrigins).toEqual([
      'https://a.example',
    ]);
  });
});
