import { describe, expect, it } from 'vitest';

import { WidgetEmbedError } from '../errors.js';
import { widgetLocation } from './widget-location.js';

describe('widgetLocation', () => {
  it('trusts exactly the widget page’s origin: scheme, host and port', () => {
    expect(widgetLocation('https://scribe.example.org/widget').origin).toBe('https://scribe.example.org');
    expect(widgetLocation('http://127.0.0.1:8080/widget').origin).toBe('http://127.0.0.1:8080');
    expect(widgetLocation('https://scribe.example.org:8443/tenant/widget/').origin).toBe(
      'https://scribe.example.org:8443',
    );
  });

  it('puts the token in the page’s query, keeping the query it already has and encoding the token', () => {
    const location = widgetLocation('https://scribe.example.org/widget?lang=en#top');
    const url = new URL(location.frameUrl('eyJ.a+b/c='));
    expect(url.pathname).toBe('/widget');
    expect(url.searchParams.get('lang')).toBe('en');
    expect(url.searchParams.get('token')).toBe('eyJ.a+b/c=');
  });

  it('replaces a token already in the URL instead of sending two', () => {
    const url = new URL(widgetLocation('https://scribe.example.org/widget?token=old').frameUrl('new'));
    expect(url.searchParams.getAll('token')).toEqual(['new']);
  });

  it.each(['/widget', 'scribe.example.org/widget', 'javascript:alert(1)', 'file:///widget.html', ''])(
    'refuses %j: the origin check needs an absolute http(s) address',
    (widgetUrl) => {
      let thrown: unknown;
      try {
        widgetLocation(widgetUrl);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(WidgetEmbedError);
      expect(thrown).toMatchObject({ source: 'embed', code: 'INVALID_OPTIONS' });
      expect((thrown as Error).message).toMatch(/^widgetUrl: /);
    },
  );
});
