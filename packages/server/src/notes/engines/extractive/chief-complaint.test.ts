import { describe, expect, it } from 'vitest';

import { parseConversation } from '../../../text/parse-conversation.js';
import { chiefComplaint } from './chief-complaint.js';
import { extractStatements } from './statements.js';

const reasonOf = (text: string) => chiefComplaint(extractStatements(parseConversation(text)))?.text ?? null;

// Visits written for this test.
describe('the reason for the visit', () => {
  it('is what someone says the patient is here for', () => {
    expect(reasonOf('[doctor] so you are here today for your annual exam .\n[patient] yes .')).toBe('Annual exam.');
    expect(reasonOf('[doctor] she presents with right knee pain .\n[patient] it hurts .')).toBe('Right knee pain.');
  });

  it("is what the clinician's one-line summary says the patient is here for", () => {
    expect(reasonOf('[doctor] mr. lee is a 61-year-old gentleman here for gout .\n[patient] yes .')).toBe('Gout.');
  });

  it('is an evaluation of what the family came to have checked', () => {
    const visit = `[doctor] hello , what can i do for you ?
[patient_guest] we are just here to make sure that her kidneys are looking good .
[doctor] okay .`;
    expect(reasonOf(visit)).toBe('Evaluation of the kidneys.');
    // A parent speaking for the family, as recognised speech without punctuation.
    expect(
      reasonOf(
        '[doctor] okay\n[patient_guest] so we are just here to make sure that our kidneys are looking good right now\n[doctor] okay',
      ),
    ).toBe('Evaluation of the kidneys.');
  });

  it('ends where a question to the patient begins, in speech without punctuation', () => {
    expect(
      reasonOf(
        "[doctor] you've come in with some right knee pain can you tell me about it what's going on\n[patient] sure",
      ),
    ).toBe('Right knee pain.');
  });

  it('is nothing when nobody says it', () => {
    expect(reasonOf('[doctor] how are you ?\n[patient] fine , thanks .')).toBeNull();
  });
});
