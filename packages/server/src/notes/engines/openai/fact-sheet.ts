import type { Fact } from '@chartwright/protocol';

/**
 * The visit's facts as the model sees them: one line per fact with its id (what a statement cites
 * in "facts"), kind, polarity, whom it is about, its evidence (turn numbers or context ids) and its
 * text. Low-certainty facts say so, so the model words them with care.
 */
function subjectOf(fact: Fact): string {
  switch (fact.subject.type) {
    case 'patient':
      return 'about the patient';
    case 'relative':
      return `about the patient's ${fact.subject.relation}, not the patient`;
    case 'other':
      return 'about someone else, not the patient';
  }
}

function sourceOf(fact: Fact): string {
  const { turns, context } = fact.source;
  if (turns.length > 0) return `turns ${turns.join(', ')}`;
  return `context ${context.join(', ')}`;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export function factLine(fact: Fact): string {
  const certainty = fact.certainty === 'low' ? '; heard with low confidence' : '';
  return `- ${fact.id} [${fact.kind}; ${fact.polarity}; ${subjectOf(fact)}; ${sourceOf(fact)}${certainty}]: ${oneLine(fact.text)}`;
}

/** The fact sheet section of the user prompt. */
export function factSheetText(facts: readonly Fact[]): string {
  if (facts.length === 0) return 'Facts: none found.';
  return `Facts of the visit (cite these ids in "facts"; "absent" means denied or not found):\n${facts.map(factLine).join('\n')}`;
}
