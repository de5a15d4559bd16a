import { describe, expect, it } from 'vitest';

import { checkOptions } from './check-options.js';

/** Stands in for a DOM element where the check looks: an object whose nodeType is 1. */
const ELEMENT = { nodeType: 1 };
const VALID = {
  container: ELEMENT,
  widgetUrl: 'https://scribe.example.org/widget',
  getToken: () => 'token',
  patientContext: { patient: { id: 'MRN-1', name: 'Ann Example' } },
};

describe('checkOptions', () => {
  it('accepts complete options and gives the widget’s origin', () => {
    const { problems, location } = checkOptions({ ...VALID, onNote: () => undefined });
    expect(problems).toEqual([]);
    expect(location?.origin).toBe('https://scribe.example.org');
  });

  it('names every problem at once', () => {
    const { problems, location } = checkOptions({
      container: '#scribe',
      widgetUrl: '/widget',
      getToken: 'eyJ…',
      patientContext: { id: 'MRN-1' },
      onNote: 'file it',
    });
    expect(location).toBeNull();
    expect(problems).toEqual([
      'container: must be a DOM element',
      'widgetUrl: must be an absolute http(s) URL such as https://scribe.example.org/widget, not "/widget"',
      'getToken: must be a function that returns a widget token',
      'patientContext.patient: is required',
      'onNote: must be a function',
    ]);
  });

  it.each([undefined, null, 42, 'options'])('refuses %j as a whole without throwing', (options) => {
    const { problems } = checkOptions(options);
    expect(problems).toHaveLength(4);
  });

  it('takes a text node or a document for what they are: not elements', () => {
    expect(checkOptions({ ...VALID, container: { nodeType: 3 } }).problems).toEqual([
      'container: must be a DOM element',
    ]);
    expect(checkOptions({ ...VALID, container: { nodeType: 9 } }).problems).toEqual([
      'container: must be a DOM element',
    ]);
  });
});
