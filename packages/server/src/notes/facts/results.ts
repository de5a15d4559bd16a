/**
 * A result in a clinician's statement: the test it names, its value and unit, and what it showed
 * ("your potassium is a little low at 3.2" → potassium, 3.2, low). Null when the statement names
 * no test, or names one without saying what came of it ("let's get an x-ray").
 */
import { PhraseMatcher } from './mentions.js';
import { chartQuantity } from './quantity.js';
import { TESTS, type TestEntry } from './lexicon/tests.js';

export interface ResultSaid {
  test: string;
  value?: string;
  unit?: string;
  interpretation?: string;
}

const MATCHER = new PhraseMatcher<TestEntry>(TESTS, (entry) => entry.phrases);

/** What says the statement reports a result, not an order. */
const RESULT_LANGUAGE =
  /\b(?:shows?|showed|shown|revealed|reveals|demonstrat\w+|came back|come back|was|were|is|are|looks?|looked|read|at)\b/;
const ORDER_LANGUAGE =
  /\b(?:order|get|want|schedule|need|send|repeat|check|swab|run)\b(?![^.]*\b(?:came back|showed|shows)\b)/;
const INTERPRETATION =
  /\b(?:(?:do not|did not|does not|cannot|can not) see (?:any|a) (?:\w+ ){0,3}?(?:fracture|abnormalit\w+|dislocation|break|mass|blockage|tear|arthritis)\w*(?: or (?:\w+ )?\w+)?|no evidence of \w+(?: (?!or\b)\w+)?(?: or \w+(?: \w+)?)?|normal|abnormal|negative|positive|unremarkable|elevated|high|low|borderline|stable|improved|worse|better|no (?:fracture|dislocation|acute \w+|evidence of \w+|sign of \w+)|mild(?:ly)? \w+|fluid)\b/;
/** A number that is not a time ("4 months ago") nor a date. */
const VALUE =
  /\b(\d+(?:\.\d+)?)(?![\d.])(?:\s*(%|percent\b|mg\/dl\b|mmol\/l\b|units?\b))?(?!\s*(?:months?|years?|weeks?|days?|hours?|minutes?|ago|times)\b)(?![/-]\d)/;

/** A result in chart words from its parts ("x-ray: no fracture or bony abnormality"). */
export function resultText(result: ResultSaid): string {
  const shown = result.interpretation?.replace(/^(?:do|did|does|can) ?not see (?:any|a) /, 'no ');
  const value = result.value === undefined ? '' : ` ${chartQuantity(result.value, result.unit)}`;
  return `${result.test}:${value}${shown === undefined ? '' : `${value === '' ? '' : ','} ${shown}`}`;
}

/** The tests a text names, in order, each with where it is said. */
export function testsNamed(text: string): { name: string; start: number }[] {
  return MATCHER.find(text).map((mention) => ({ name: mention.entry.name, start: mention.start }));
}

/** What the patient eats or drinks ("reduce your sodium intake to 2,300 milligrams"): advice, not a level measured. */
const INTAKE_BEFORE =
  /\b(?:reduc\w*|cut\w*(?: back| down)?(?: on)?|limit\w*|lower\w*|decreas\w*|watch\w*|avoid\w*|less|more)\s+(?:your |his |her |their |the )?$/;
const INTAKE_AFTER = /^\s*(?:intake|consumption|in (?:your|his|her|their|the) diet)\b/;

export function resultOf(text: string): ResultSaid | null {
  const [mention] = MATCHER.find(text);
  if (mention === undefined) return null;
  const after = text.slice(mention.end);
  const before = text.slice(0, mention.start);
  if (!RESULT_LANGUAGE.test(after) || ORDER_LANGUAGE.test(before)) return null;
  if (INTAKE_AFTER.test(after) || INTAKE_BEFORE.test(before)) return null;
  // "… a strep test, and if that is positive …" says what would follow a result, not what it was.
  const said = after.split(/\bif\b/)[0] ?? after;
  const value = VALUE.exec(said);
  const interpretation = INTERPRETATION.exec(said)?.[0];
  if (value === null && interpretation === undefined) return null;
  const result: ResultSaid = { test: mention.entry.name };
  if (value?.[1] !== undefined) result.value = value[1];
  const unit = value?.[2] === 'percent' ? '%' : (value?.[2] ?? mention.entry.unit);
  if (result.value !== undefined && unit !== undefined) result.unit = unit;
  if (interpretation !== undefined) result.interpretation = interpretation;
  return result;
}
