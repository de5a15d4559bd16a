/**
 * A medicine's dose and frequency as said around its name, or in an answer about it: "10
 * milligrams once a day", "20 units of the lantus", "increase your lasix to 80", "the atorvastatin,
 * 40 at night", "cutting the 25 milligram tablets in half" (12.5 mg).
 */
import type { FactOf } from '@chartwright/protocol';

import { DOSE_UNITS, FREQUENCIES } from './lexicon/medications.js';

export type Dose = NonNullable<FactOf<'medication'>['dose']>;

const UNITS = DOSE_UNITS.map((unit) => unit.pattern).join('|');
/** A number as written: "40", "12.5", and with thousands set off ("1,000 mg"). */
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const UNIT_PATTERN = new RegExp(String.raw`^\s*(?:of |at |to )?(${NUMBER}) ?(${UNITS})\b`);
const UNIT_BEFORE = new RegExp(String.raw`(?<![\d,])(${NUMBER}) ?(${UNITS})(?: of)?(?: (?:the|your|my))?\s*$`);
const UNIT_ANYWHERE = new RegExp(String.raw`\b(${NUMBER}) ?(${UNITS})\b`);
const numberOf = (said: string): number => Number(said.replace(/,/g, ''));

/** "The 25 milligram tablets in half", "half of a 50 milligram pill": half the strength said. */
const HALVED_AFTER = /^\s*(?:tablets?|pills?|tabs?)?\s*(?:in half|in halves)\b/;
const HALVED_BEFORE = /\bhalf (?:of )?(?:a |the |my |one )?$/;

/**
 * A bare number after the drug that can only be its dose: after "to", "at" or "of" ("increase your
 * lasix to 80"), or set off by a comma and followed by how often or the clause's end ("the
 * atorvastatin, 40 at night").
 */
const BARE_DOSE = new RegExp(
  String.raw`^\s*(?:(?:to|at|of) (${NUMBER})\b(?! (?:years?|days?|weeks?|months?|pounds|times))|, (${NUMBER})(?=\s*(?:$|[,.;]|at (?:night|bedtime)|a day|daily|every|once|twice|in the (?:morning|evening)|each|before|with)))`,
);

const chartUnit = (said: string) =>
  DOSE_UNITS.find((entry) => new RegExp(`^(?:${entry.pattern})$`).test(said))?.unit ?? said;

/** The dose of a unit match, halved when the tablets are split. */
function doseOf(match: RegExpExecArray, before: string, after: string): Dose {
  const value = numberOf(match[1] ?? '');
  const halved = HALVED_AFTER.test(after) || HALVED_BEFORE.test(before);
  return { value: halved ? value / 2 : value, unit: chartUnit(match[2] ?? '') };
}

/** The dose said right after the drug. */
export function doseAfter(after: string): Dose | undefined {
  // The dose may follow the form ("an albuterol inhaler, 2 puffs …").
  const trimmed = after.replace(/^(?:\s*(?:[a-z]+|,)){1,3}/, '');
  for (const text of [after, trimmed]) {
    const unit = UNIT_PATTERN.exec(text);
    if (unit !== null) return doseOf(unit, '', text.slice(unit[0].length));
  }
  const bare = BARE_DOSE.exec(after);
  const value = bare?.[1] ?? bare?.[2];
  return value === undefined ? undefined : { value: numberOf(value), unit: '' };
}

/** A dose said before the drug: "20 units of lantus", "2 puffs of the albuterol". */
export function doseBefore(before: string): Dose | undefined {
  const unit = UNIT_BEFORE.exec(before);
  return unit === null ? undefined : doseOf(unit, before.slice(0, unit.index), '');
}

/** The first dose with its unit anywhere in a text that does not name the drug (an answer about it). */
export function doseIn(text: string): Dose | undefined {
  const unit = UNIT_ANYWHERE.exec(text);
  return unit === null ? undefined : doseOf(unit, text.slice(0, unit.index), text.slice(unit.index + unit[0].length));
}

/**
 * How often, as charted: each frequency said (in the order said, none inside another), so
 * "every 4 hours as needed" keeps both.
 */
export function frequencyIn(text: string): string | undefined {
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
