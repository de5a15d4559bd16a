import { describe, expect, it } from 'vitest';

import { parseConversation } from '../../text/parse-conversation.js';
import { exchanges } from './fixtures/exchanges.js';
import { forbiddenFound, matchFacts } from './fixtures/match.js';
import { extractFacts } from './sheet.js';
import { findCuratedTemplate } from '../templates.js';

const template = findCuratedTemplate('history_and_physical');

describe('fact extraction on the hand-written exchanges', () => {
  const cases = exchanges.map((exchange) => [`${exchange.theme}: ${exchange.name}`, exchange] as const);
  for (const [name, exchange] of cases) {
    it(name, () => {
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
