/** Vital signs, examination findings by system, and results, in chart form. */
import type { FactSheet } from '../facts/sheet.js';
import { capitalize, charted, ofKind, sentence, type Written } from './phrasing.js';

/** Chart form: "97%", "99.1°F", "120/80 mmHg". */
const unitText = (unit: string | undefined) =>
  unit === undefined ? '' : /^(?:%|°[CF])$/.test(unit) ? unit : ` ${unit}`;

function vitals(sheet: FactSheet): Written[] {
  const signs = ofKind(sheet.facts, 'vital');
  if (signs.length === 0) return [];
  const line = signs.map((vital) => `${capitalize(vital.name)}: ${vital.value}${unitText(vital.unit)}`);
  return [{ text: sentence(line.join('; ')), facts: signs }];
}

function exam(sheet: FactSheet): Written[] {
  return ofKind(sheet.facts, 'exam').map((finding) => {
    const text = /^[A-Z][A-Za-z ,]+:/.test(finding.text) ? finding.text : `${finding.system}: ${finding.finding}`;
    return { text: sentence(text), facts: [finding] };
  });
}

function results(sheet: FactSheet): Written[] {
  return ofKind(sheet.facts, 'result').map((result) => {
    const dated = result.date === undefined ? result.text : `${result.text} (${result.date})`;
    return { text: sentence(charted(result, dated)), facts: [result] };
  });
}

export function findingSentences(sheet: FactSheet): { vitals: Written[]; exam: Written[]; results: Written[] } {
  return { vitals: vitals(sheet), exam: exam(sheet), results: results(sheet) };
}
