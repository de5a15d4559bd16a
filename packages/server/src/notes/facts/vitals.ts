/**
 * Vital signs measured in the visit, as the clinician reads them out: blood pressure, heart rate,
 * temperature, oxygen saturation, respiratory rate, weight, BMI. The patient's own readings at
 * home are history (what they say), not today's vitals.
 */
import { turnsSource, type DraftOf } from './draft.js';
import { chartQuantity } from './quantity.js';
import type { Utterance } from './utterances.js';

export type VitalDraft = DraftOf<'vital'>;

interface VitalSign {
  name: string;
  unit?: string;
  pattern: RegExp;
  /** The unit when it depends on the value. */
  unitOf?: (value: string) => string;
  /** The value as charted from the match. */
  value: (match: RegExpExecArray) => string;
}

const NUMBER = String.raw`(\d{1,3}(?:\.\d)?)`;

const VITALS: readonly VitalSign[] = [
  {
    name: 'blood pressure',
    unit: 'mmHg',
    pattern: new RegExp(String.raw`\b(?:blood pressure|bp)\b[^.;?]{0,30}?\b(\d{2,3}) ?(?:\/|over) ?(\d{2,3})\b`),
    value: (m) => `${m[1] ?? ''}/${m[2] ?? ''}`,
  },
  {
    name: 'heart rate',
    unit: 'bpm',
    pattern: new RegExp(String.raw`\b(?:heart rate|pulse(?! ox)|hr)\b[^.;?]{0,20}?\b${NUMBER}\b`),
    value: (m) => m[1] ?? '',
  },
  {
    name: 'temperature',
    // A reading under 50 is in Celsius (38.2), else Fahrenheit (99.1).
    unitOf: (value) => (Number(value) < 50 ? '°C' : '°F'),
    pattern: new RegExp(String.raw`\b(?:temperature|temp)\b[^.;?]{0,20}?\b${NUMBER}\b`),
    value: (m) => m[1] ?? '',
  },
  {
    name: 'oxygen saturation',
    unit: '%',
    pattern: new RegExp(
      String.raw`\b(?:oxygen saturation|oxygen level|o2 sat(?:uration)?|sat(?:uration)?s?|pulse ox(?:imetry)?|spo2)\b[^.;?]{0,20}?\b${NUMBER}\b`,
    ),
    value: (m) => m[1] ?? '',
  },
  {
    name: 'respiratory rate',
    unit: 'breaths/min',
    // "Breathing 18 a minute", as a nurse reads it out.
    pattern: new RegExp(
      String.raw`\b(?:respiratory rate|respirations|rr)\b[^.;?]{0,20}?\b${NUMBER}\b|\bbreathing (?:at )?${NUMBER} (?:a|per|times a) minute\b`,
    ),
    value: (m) => m[1] ?? m[2] ?? '',
  },
  {
    name: 'weight',
    unit: 'lb',
    pattern: new RegExp(String.raw`\b(?:weight|weigh|weighs)\b[^.;?]{0,20}?\b(\d{2,3}(?:\.\d)?) ?(?:pounds|lbs?)\b`),
    value: (m) => m[1] ?? '',
  },
  {
    name: 'BMI',
    pattern: new RegExp(String.raw`\b(?:bmi|body mass index)\b[^.;?]{0,20}?\b(\d{2}(?:\.\d)?)\b`),
    value: (m) => m[1] ?? '',
  },
];

/** Readings the patient took elsewhere: history, not today's vitals. */
const AT_HOME =
  /\b(?:at home|home readings?|my (?:machine|cuff|monitor)|i (?:check|checked|take|took|measure)|last (?:week|visit|time)|this morning|been running)\b/;

/** Signs read out as a verdict rather than a number ("your vitals look good"). */
const QUALITATIVE_SIGNS: readonly (readonly [string, RegExp])[] = [
  ['vital signs', /\b(?:vitals|vital signs)\b/],
  ['blood pressure', /\bblood pressure\b/],
  ['heart rate', /\b(?:heart rate|pulse(?! ox))\b/],
  ['oxygen saturation', /\b(?:oxygenation|oxygen saturation|oxygen level|o2 sat\w*)\b/],
  ['temperature', /\b(?:temperature)\b/],
];
const VERDICTS: readonly (readonly [string, RegExp])[] = [
  [
    'within normal limits',
    /\b(?:look|looks|looked|are|is|was|were|seems?)\b(?: \w+){0,2} (?:good|normal|fine|great|stable|okay|unremarkable)\b/,
  ],
  ['elevated', /\b(?:is|was|are|were|a (?:little|bit)|little|bit|slightly|quite) (?:elevated|high|up)\b/],
  ['low', /\b(?:is|was|a (?:little|bit)|little|bit|slightly) low\b/],
];

function qualitativeVitals(utterance: Utterance, byName: Map<string, VitalDraft>): void {
  const verdict = VERDICTS.find(([, pattern]) => pattern.test(utterance.text));
  if (verdict === undefined) return;
  const named = QUALITATIVE_SIGNS.filter(([, pattern]) => pattern.test(utterance.text)).map(([name]) => name);
  const signs = named.length > 1 ? named.filter((name) => name !== 'vital signs') : named;
  for (const name of signs) {
    if (byName.has(name)) continue;
    byName.set(name, {
      kind: 'vital',
      text: `${name} ${verdict[0]}`,
      name,
      value: verdict[0],
      polarity: 'present',
      subject: { type: 'patient' },
      speaker: utterance.speaker,
      source: turnsSource([utterance.turn]),
    });
  }
}

/** The reading's own clause: "weight today is 212 pounds, up 6 from your last visit" is today's. */
function readElsewhere(text: string, match: RegExpExecArray): boolean {
  const start = Math.max(0, ...[',', ';'].map((mark) => text.lastIndexOf(mark, match.index) + 1));
  const ends = [',', ';'].map((mark) => text.indexOf(mark, match.index + match[0].length)).filter((at) => at >= 0);
  return AT_HOME.test(text.slice(start, ends.length === 0 ? text.length : Math.min(...ends)));
}

export function vitalFacts(utterances: readonly Utterance[]): VitalDraft[] {
  const byName = new Map<string, VitalDraft>();
  for (const utterance of utterances) {
    if (utterance.question || utterance.speaker === 'patient') continue;
    for (const vital of VITALS) {
      const match = vital.pattern.exec(utterance.text);
      if (match === null || byName.has(vital.name) || readElsewhere(utterance.text, match)) continue;
      const value = vital.value(match);
      const unit = vital.unitOf?.(value) ?? vital.unit;
      byName.set(vital.name, {
        kind: 'vital',
        text: `${vital.name} ${chartQuantity(value, unit)}`,
        name: vital.name,
        value,
        ...(unit === undefined ? {} : { unit }),
        polarity: 'present',
        subject: { type: 'patient' },
        speaker: utterance.speaker,
        source: turnsSource([utterance.turn]),
      });
    }
  }
  const measured = byName.size > 0;
  for (const utterance of utterances) {
    if (utterance.question || utterance.speaker === 'patient' || AT_HOME.test(utterance.text)) continue;
    qualitativeVitals(utterance, byName);
  }
  // "Vitals look good" beside the numbers adds nothing the numbers do not say; beside signs read
  // with the same verdict, it says it once.
  if (measured) byName.delete('vital signs');
  const overall = byName.get('vital signs');
  for (const [name, vital] of byName) {
    if (overall !== undefined && name !== 'vital signs' && vital.value === overall.value) {
      byName.delete(name);
      overall.source = turnsSource([...overall.source.turns, ...vital.source.turns]);
    }
  }
  return [...byName.values()];
}
