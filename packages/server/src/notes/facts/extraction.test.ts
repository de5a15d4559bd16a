import { describe, expect, it } from 'vitest';

import { parseConversation } from '../../text/parse-conversation.js';
import { exchanges } from './fixtures/exchanges.js';
import { forbiddenFound, matchFacts } from './fixtures/match.js';
import { extractFacts } from './sheet.js';
import { findCuratedTemplate } from '../templates.js';

const template = findCuratedTemplate('history_and_physical');

/**
 * Cases the extractors do not get right yet (see docs/notes-quality.md, "The fact extractors").
 * They run as expected failures, so one that starts passing fails here until it leaves the list,
 * and the list only ever shrinks.
 */
const NOT_YET: ReadonlySet<string> = new Set([]);

describe('fact extraction on the hand-written exchanges', () => {
  const cases = exchanges.map((exchange) => [`${exchange.theme}: ${exchange.name}`, exchange] as const);
  it('names only real cases among those not right yet', () => {
    const known = new Set<string>(cases.map(([name]) => name));
    expect([...NOT_YET].filter((name) => !known.has(name))).toEqual([]);
  });
  const run = (name: string) => (NOT_YET.has(name) ? it.fails : it);
  for (const [name, exchange] of cases) {
    run(name)(name, () => {
      if (template === undefined) throw new Error('no history_and_physical template');
      const { facts } = extractFacts({ template, conversation: parseConversation(exchange.conversation), context: {} });
      const { missing, wrong } = matchFacts(facts, exchange.expect);
      expect({ missing, wrong, forbidden: forbiddenFound(facts, exchange.forbid ?? []) }).toEqual({
        missing: [],
        wrong: [],
        forbidden: [],
      });
    });
  }
});
