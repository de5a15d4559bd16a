/**
 * Clinical register: what a history sentence of a note may not contain — the first or second
 * person of speech (a note speaks of the patient in the third person), and the markers of spoken
 * language. The same word lists the note-quality audit counts (docs/notes-quality.md).
 */

const FIRST_OR_SECOND_PERSON =
  /(?<![\w'’-])(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|me|my|mine|we|we're|we’re|we've|we’ve|we'll|we’ll|us|our|ours|you|you're|you’re|you've|you’ve|you'll|you’ll|your|yours)(?![\w'’-])/i;

const SPOKEN_MARKER =
  /(?<![\w'’-])(?:okay|ok|um|uh|uh-huh|mm-hmm|yeah|yep|nope|gonna|wanna|kinda|sorta|alright|you know|i mean|hey)(?![\w'’-])/i;

/** Text in quotation marks is the patient's own words, which a note may quote. */
const QUOTED = /[“"][^”"]*[”"]/g;

function hasPersonalPronoun(sentence: string): boolean {
  return FIRST_OR_SECOND_PERSON.test(sentence.replace(QUOTED, ' '));
}

function hasSpokenMarker(sentence: string): boolean {
  return SPOKEN_MARKER.test(sentence);
}

const SECOND_PERSON = /(?<![\w'’-])(?:you|you're|you’re|you've|you’ve|you'll|you’ll|your|yours)(?![\w'’-])/i;

/**
 * Whether a sentence may stand in the assessment and plan, where the clinician's own voice ("I
 * recommended …") is how clinicians write: no second person, no spoken markers.
 */
export function inPlanRegister(sentence: string): boolean {
  return !SECOND_PERSON.test(sentence.replace(QUOTED, ' ')) && !hasSpokenMarker(sentence);
}

/** Whether a sentence may stand in the history of a note. */
function inClinicalRegister(sentence: string): boolean {
  return !hasPersonalPronoun(sentence) && !hasSpokenMarker(sentence);
}

/** Where a spoken sentence joins two thoughts that can stand apart. */
const CLAUSE_JOINS =
  /\s*(?:,\s*(?:and|but|so|which|and then|because)\s+|;\s*|,\s+(?=(?:he|she|they|it|this|that|there)\s))/i;
const NEGATION_WORD = /(?<![\w'’-])(?:no|not|never|none|without|denies|nothing)(?![\w'’-])/i;
const MIN_CLAUSE_WORDS = 4;

/**
 * The clauses of a sentence that are in clinical register, when dropping the others loses no
 * negation (a dropped "we did not see …" would leave a claim the visit did not make); null when
 * nothing usable is left.
 */
export function salvage(sentence: string, fits: (text: string) => boolean = inClinicalRegister): string | null {
  if (fits(sentence)) return sentence;
  const clauses = sentence.replace(/\.$/, '').split(CLAUSE_JOINS);
  const kept = clauses.filter((clause) => fits(clause));
  const dropped = clauses.filter((clause) => !kept.includes(clause));
  if (kept.length === 0 || dropped.some((clause) => NEGATION_WORD.test(clause))) return null;
  const text = kept.join(', ').trim();
  if (text.split(/\s+/).length < MIN_CLAUSE_WORDS) return null;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * Speech cut off before its point ("Again, he is doing really.", "We will go ahead."): a sentence
 * that ends on a word that needs what follows it says nothing a note can use.
 */
const CUT_SHORT =
  /\b(?:really|very|pretty|so|just|go ahead|the|a|an|and|or|but|to|of|for|with|is|are|was|were|be|he|she|they|his|her|their|that|going|about|like|because|if|(?<!(?:since|by|until|till|and|back) )then|(?<!(?:any|anything|ever|problems|issues|one|it|them|those|her|him) )since|when|not|would|could|should|will|can|may|might|we|i|you|how (?:the patient|he|she|they)|(?<=\b(?:he|she|they|i) )feels?)\.?$/i;
/** The last clause of a sentence, from the comma or joining word that opens it. */
const LAST_CLAUSE =
  /(?:,\s*|\s+(?:and|but|so|because|if|and then)\s+)(?!.*(?:,\s|\s(?:and|but|so|because|if)\s))[^,]*$/i;
/** The rest of a sentence said before it ("That there is nothing else going on."), not "That is …". */
const CONTINUATION =
  /^that (?!(?:is|was|has|had|will|would|should|can|could|looks?|looked|sounds?|seems?|seemed|means?|meant|helps?|helped|did|does)\b)/i;
/** A decision said in the first person, which can open a sentence of its own. */
const DECISION =
  /\b(?:i|we) (?:am |are |will |would like to |want to )?(?:also )?(?:going to )?(?:order|prescribe|refer|start|schedule|send|get|check|give)\b/i;
/** A clause that depends on another and cannot stand alone ("When I get the results."). */
const DEPENDENT = /^(?:when|if|because|since|although|once|after|before|until)\b/i;

/**
 * The sentence as a complete one: itself, or without its last clause when only that was cut off
 * ("…in 2 weeks, and I am going." → "…in 2 weeks."); null when what is left is no sentence.
 */
/** A last word that only leads on ("… might have lyme disease based."): the sentence stands without it. */
const LEADS_ON = /\s+(?:based|due|including|such as)\.?$/i;

export function completed(said: string): string | null {
  const sentence = said.replace(LEADS_ON, '.');
  if (CONTINUATION.test(sentence)) {
    // What such a run-on goes on to decide stands alone ("… I am also going to order a urinalysis.").
    const decided = DECISION.exec(sentence);
    if (decided === null) return null;
    const rest = sentence.slice(decided.index);
    return completed(`${rest.charAt(0).toUpperCase()}${rest.slice(1)}`);
  }
  if (!CUT_SHORT.test(sentence)) return sentence;
  const cut = LAST_CLAUSE.exec(sentence.replace(/\.$/, ''));
  if (cut === null) return null;
  const kept = sentence.slice(0, cut.index).trim();
  const complete = kept.split(/\s+/).length >= MIN_CLAUSE_WORDS && !CUT_SHORT.test(kept) && !DEPENDENT.test(kept);
  return complete ? `${kept}.` : null;
}
