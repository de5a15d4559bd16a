import { describe, expect, it } from 'vitest';

import { parseConversation } from './parse-conversation.js';
import { labelsLookSwapped, withCheckedRoles } from './speaker-roles.js';

// Written for this test: the clinician's lines carry the [patient] tag and the other way round.
const SWAPPED = `[patient] good morning , what brings you in today ?
[doctor] my knee has been hurting for a month .
[patient] any swelling ? any fever ?
[doctor] no fever . it swells after i walk .
[patient] okay , let me examine your knee . on your exam there is a small effusion .
[patient] i reviewed your x-ray , there is mild arthritis .
[patient] i want you to take ibuprofen and i'm going to refer you to physical therapy . follow up in six weeks .
[doctor] thank you , doctor .`;

const AS_LABELLED = SWAPPED.replace(/\[patient\]/g, '[x]')
  .replace(/\[doctor\]/g, '[patient]')
  .replace(/\[x\]/g, '[doctor]');

describe('speaker roles', () => {
  it('sees labels that are the wrong way round and swaps them back', () => {
    const conversation = parseConversation(SWAPPED);
    expect(labelsLookSwapped(conversation)).toBe(true);
    const checked = withCheckedRoles(conversation);
    expect(checked.swapped).toBe(true);
    expect(checked.conversation.turns.map((turn) => turn.speaker)).toEqual(
      parseConversation(AS_LABELLED).turns.map((turn) => turn.speaker),
    );
  });

  it('keeps labels that are right, and a conversation with only one labelled role', () => {
    expect(withCheckedRoles(parseConversation(AS_LABELLED)).swapped).toBe(false);
    const monologue = parseConversation('[doctor] on your exam , your lungs are clear . i reviewed your labs .');
    expect(withCheckedRoles(monologue).swapped).toBe(false);
  });

  it('keeps the labels when the reading is marginal', () => {
    const even = parseConversation(`[doctor] how are you ?
[patient] fine , how are you ?
[doctor] good , thanks .`);
    expect(labelsLookSwapped(even)).toBe(false);
  });
});
