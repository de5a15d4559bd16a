/**
 * The medicines of the visit: each drug named in a statement or answered about, with the dose,
 * frequency and route said with it, whether the patient is on it, and what the visit did with it
 * (the clinician starts, stops, continues or adjusts it). One fact per drug: later statements add
 * what earlier ones left out, and the clinician's decision settles the change.
 */
import { turnsSource, type DraftOf } from './draft.js';
import type { Exchange } from './exchanges.js';
import { DOSE_UNITS, DRUGS, DRUG_SUFFIX, FREQUENCIES, ROUTES, type DrugEntry } from './lexicon/medications.js';
import { relativeIn } from './lexicon/relatives.js';
import { PhraseMatcher } from './mentions.js';
import { chartQuantity } from './quantity.js';
import { inHypothetical } from './problems.js';
import type { Utterance } from './utterances.js';

export type MedicationDraft = DraftOf<'medication'>;
type Change = MedicationDraft['change'];

const MATCHER = new PhraseMatcher<DrugEntry>(DRUGS, (entry) => entry.phrases);

interface Named {
  name: string;
  start: number;
  end: number;
}

/** The drugs a text names: from the list, then words with a drug's ending. */
function drugsIn(text: string): Named[] {
  const listed = MATCHER.find(text).map((mention) => ({
    name: mention.entry.name,
    start: mention.start,
    end: mention.end,
  }));
  const byEnding = [...text.matchAll(/[a-z]+/g)]
    .filter((word) => DRUG_SUFFIX.test(word[0]))
    .filter((word) => !listed.some((named) => word.index >= named.start && word.index < named.end))
    .map((word) => ({ name: word[0], start: word.index, end: word.index + word[0].length }));
  return [...listed, ...byEnding].sort((a, b) => a.start - b.start);
}

const UNIT_PATTERN = new RegExp(
  String.raw`^\s*(?:of |at |to )?(\d+(?:\.\d+)?) ?(${DOSE_UNITS.map((unit) => unit.pattern).join('|')})\b`,
);
/**
 * How often, as charted: each frequency said (in the order said, none inside another), so
 * "every 4 hours as needed" keeps both.
 */
function frequencyIn(text: string): string | undefined {
  const spans: { name: string; start: number; end: number }[] = [];
  for (const [name, pattern] of FREQUENCIES) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const span = { name, start: match.index, end: match.index + match[0].length };
    if (!spans.some((kept) => span.start < kept.end && kept.start < span.end)) spans.push(span);
  }
  const said = spans.sort((a, b) => a.start - b.start).map((span) => span.name);
  return said.length === 0 ? undefined : said.join(' ');
}

/** A bare number after the drug that can only be its dose ("increase your lasix to 80"). */
const BARE_DOSE = /^\s*(?:to|at|of) (\d+(?:\.\d+)?)\b(?! (?:years?|days?|weeks?|months?|pounds|times))/;

function doseAfter(after: string): MedicationDraft['dose'] {
  // The dose may follow the form ("an albuterol inhaler, 2 puffs …").
  const unit = UNIT_PATTERN.exec(after) ?? UNIT_PATTERN.exec(after.replace(/^(?:\s*(?:[a-z]+|,)){1,3}/, ''));
  if (unit !== null) {
    const said = unit[2] ?? '';
    const charted = DOSE_UNITS.find((entry) => new RegExp(`^(?:${entry.pattern})$`).test(said))?.unit ?? said;
    return { value: Number(unit[1]), unit: charted };
  }
  const bare = BARE_DOSE.exec(after);
  return bare === null ? undefined : { value: Number(bare[1]), unit: '' };
}

/** A dose said before the drug: "20 units of lantus", "2 puffs of the albuterol". */
function doseBefore(before: string): MedicationDraft['dose'] {
  const match = new RegExp(
    String.raw`(\d+(?:\.\d+)?) ?(${DOSE_UNITS.map((unit) => unit.pattern).join('|')})(?: of)?(?: (?:the|your|my))?\s*$`,
  ).exec(before);
  if (match === null) return undefined;
  const said = match[2] ?? '';
  return {
    value: Number(match[1]),
    unit: DOSE_UNITS.find((entry) => new RegExp(`^(?:${entry.pattern})$`).test(said))?.unit ?? said,
  };
}

const STOPPED =
  /\b(?:stopped|stop (?:taking|the|your)|quit|discontinu\w+|no longer|ran out|came off|went off|off (?:of )?(?:the|it))\b/;
const ADJUSTED =
  /\b(?:increas\w+|decreas\w+|cut (?:the|your|it|back|down)|bump\w* (?:up|the|your)|doubl\w+|lower\w*|rais\w+|reduc\w+|titrat\w+|taper\w*|go up on|go down on)\b/;
const STARTED =
  /\b(?:start(?:ing)? (?:you|him|her|them) on|start (?:the|a|some)|prescrib\w+|put (?:you|him|her) on|going to (?:give|send)|send (?:in|over)|(?:let's|let us|we will|i will) try(?! to\b)|try (?:you|him|her) on|switch\w* (?:you|him|her)? ?(?:to|over to)|add (?:on )?(?:a|some)?)\b/;
const CONTINUED = /\b(?:continue|keep (?:taking|on|using)|stay on|keep (?:you|him|her) on|remain on)\b/;

/** A decision told as past ("we put you on prozac last year") is history, not today's change. */
const PAST_DECISION =
  /\b(?:had (?:put|started|stopped|increased|decreased)|last (?:year|month|week|visit|time)|ago|previously|back in)\b/;

function clinicianChange(clause: string): Change {
  if (PAST_DECISION.test(clause)) return undefined;
  if (STOPPED.test(clause)) return 'stopped';
  if (ADJUSTED.test(clause)) return 'adjusted';
  if (STARTED.test(clause)) return 'started';
  if (CONTINUED.test(clause)) return 'continued';
  return undefined;
}

/** A switch "from A to B": A is stopped, B started. */
const SWITCH = /\bswitch\w* (?:you |him |her )?(?:from|off) /;

function draftFor(
  named: Named,
  utterance: Utterance,
  polarity: MedicationDraft['polarity'],
  until = named.end + 60,
): MedicationDraft {
  const { text } = utterance;
  // What follows the drug, up to the next drug named: its dose and frequency are said there.
  const after = text.slice(named.end, Math.min(until, named.end + 60));
  const before = text.slice(Math.max(0, named.start - 30), named.start);
  const clause = text;
  const dose = doseAfter(after) ?? doseBefore(before);
  const frequency = frequencyIn(after);
  const route = ROUTES.find(([, pattern]) => pattern.test(clause))?.[0];
  const byClinician = utterance.speaker === 'clinician';
  let change = byClinician ? clinicianChange(clause) : undefined;
  const switchedFrom = SWITCH.exec(text);
  if (switchedFrom !== null && byClinician) {
    const target = /\b(?:to|over to|onto) /.exec(text.slice(switchedFrom.index + switchedFrom[0].length));
    const targetAt = target === null ? -1 : switchedFrom.index + switchedFrom[0].length + target.index;
    change = targetAt >= 0 && named.start > targetAt ? 'started' : 'stopped';
  }
  const stopped = change === 'stopped' || (!byClinician && STOPPED.test(clause));
  return {
    kind: 'medication',
    text: [named.name, dose === undefined ? '' : doseText(dose), frequency ?? '']
      .filter((part) => part !== '')
      .join(' '),
    name: named.name,
    ...(dose === undefined ? {} : { dose }),
    ...(route === undefined ? {} : { route }),
    ...(frequency === undefined ? {} : { frequency }),
    status: polarity === 'absent' ? 'unknown' : stopped ? 'stopped' : 'active',
    ...(stopped && !byClinician ? { change: 'stopped' as const } : change === undefined ? {} : { change }),
    polarity,
    subject: { type: 'patient' },
    speaker: utterance.speaker,
    source: turnsSource([utterance.turn]),
  };
}

/** "2 puff" reads "2 puffs": countable units take the plural. */
export function doseText(dose: NonNullable<MedicationDraft['dose']>): string {
  const countable = /^(?:puff|tablet|capsule|drop)$/.test(dose.unit) && dose.value !== 1;
  return chartQuantity(dose.value, countable ? `${dose.unit}s` : dose.unit);
}

/** Later words about the same drug fill what the first left out; the clinician's change wins. */
function merge(kept: MedicationDraft, later: MedicationDraft): MedicationDraft {
  const change = later.change ?? kept.change;
  return {
    ...kept,
    ...(kept.dose === undefined && later.dose !== undefined ? { dose: later.dose } : {}),
    ...(later.change === 'adjusted' && later.dose !== undefined ? { dose: later.dose } : {}),
    ...(kept.frequency === undefined && later.frequency !== undefined ? { frequency: later.frequency } : {}),
    ...(kept.route === undefined && later.route !== undefined ? { route: later.route } : {}),
    ...(change === undefined ? {} : { change }),
    status: later.status === 'unknown' ? kept.status : later.status,
    source: turnsSource([...kept.source.turns, ...later.source.turns]),
  };
}

const ALLERGY_TALK = /\b(?:allerg\w*|reaction to|makes me break out|break out in)\b/;

const YES = /^(?:yes|yeah|yep|i do|i am|mm-hmm|uh-huh|still|correct|right)\b/;
const NO = /^(?:no|nope|not|never|i do not|i am not|i stopped)\b/;

export function medicationFacts(utterances: readonly Utterance[], exchanges: readonly Exchange[]): MedicationDraft[] {
  const byName = new Map<string, MedicationDraft>();
  const add = (draft: MedicationDraft) => {
    const kept = byName.get(draft.name);
    byName.set(draft.name, kept === undefined ? draft : merge(kept, draft));
  };
  const asked = new Map(exchanges.map((exchange) => [exchange.question, exchange]));
  for (const utterance of utterances) {
    // A relative's medicines are theirs; a drug named as an allergy is the allergy facts' business.
    if (relativeIn(utterance.text) !== undefined || ALLERGY_TALK.test(utterance.text)) continue;
    const drugs = drugsIn(utterance.text);
    for (const [index, named] of drugs.entries()) {
      if (inHypothetical(utterance.text, named.start)) continue;
      if (!utterance.question) {
        add(draftFor(named, utterance, 'present', drugs[index + 1]?.start));
        continue;
      }
      const exchange = asked.get(utterance);
      const reply = exchange?.spoken.join(' ').toLowerCase().trim() ?? '';
      if (exchange === undefined || utterance.speaker !== 'clinician') continue;
      const answered = { speaker: exchange.answerSpeaker, source: turnsSource([utterance.turn, exchange.answerTurn]) };
      if (YES.test(reply)) add({ ...draftFor(named, utterance, 'present'), ...answered });
      else if (NO.test(reply) && !/\bstill\b/.test(utterance.text)) {
        add({ ...draftFor(named, utterance, 'absent'), ...answered });
      }
    }
  }
  return [...byName.values()];
}
