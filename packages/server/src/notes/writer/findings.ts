/** Vital signs, examination findings by system, and results, in chart form. */
import { chartQuantity } from '../facts/quantity.js';
import type { FactSheet } from '../facts/sheet.js';
import { capitalize, charted, ofKind, sentence, type Written } from './phrasing.js';

function vitals(sheet: FactSheet): Written[] {
  const signs = ofKind(sheet.facts, 'vital');
  if (signs.length === 0) return [];
  const line = signs.map((vital) => `${capitalize(vital.name)}: ${chartQuantity(vital.value, vital.unit)}`);
  return [{ text: sentence(line.join('; ')), facts: signs }];
}

function exam(sheet: FactSheet): Written[] {
  return ofKind(sheet.facts, 'exam').map((finding) => {
    const text = /^[A-Z][A-Za-z ,]+:/.test(finding.text)
      ? finding.text
      : `${finding.system}: ${capitalize(finding.finding)}`;
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
