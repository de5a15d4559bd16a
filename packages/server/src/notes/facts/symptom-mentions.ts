/**
 * Where a statement names a symptom: the symptom lexicon, complaints of a body part ("my left knee
 * hurts" → knee pain), symptoms named by two words apart ("blood when I have a bowel movement"),
 * and, in a question that names none, the body part or symptom the conversation was just about
 * ("has it been swollen?" after the knee).
 */
import { locationIn } from './attributes.js';
import { PhraseMatcher, type Mention } from './mentions.js';
import { INTERNAL_ORGANS, PAIN_WORDS, STIFFNESS_WORDS, SWELLING_WORDS } from './lexicon/anatomy.js';
import { SYMPTOMS, type SymptomEntry } from './lexicon/symptoms.js';
import { clauseAround } from './utterances.js';

export interface Found {
  name: string;
  start: number;
  end: number;
  /** A function asked about ("is she eating?"): a no is the problem ("decreased appetite"). */
  inverted?: boolean;
}

const MATCHER = new PhraseMatcher<SymptomEntry>(SYMPTOMS, (entry) => entry.phrases);

/** Symptoms a statement names with two words apart; some take the place of one of their words. */
const COMPOUNDS: readonly (readonly [string, RegExp, RegExp, string?])[] = [
  [
    'sputum production',
    /\bcough\w*\b/,
    /\b(?:anything|something|stuff|mucus|phlegm) up\b|\bup (?:anything|mucus|phlegm)\b/,
    'cough',
  ],
  ['eye redness', /\beyes?\b/, /\bred(?:ness)?\b|\bbloodshot\b/],
  ['blood in stool', /\bblood\b/, /\b(?:stools?|bowel movements?|poop|toilet paper|rectum|rectal)\b/],
  ['hematuria', /\bblood\b/, /\b(?:urine|pee|urinate)\b/],
  ['hemoptysis', /\bblood\b/, /\b(?:cough\w*|comes up|spit\w*|phlegm|sputum)\b/],
  ['weight change', /\bweight\b/, /\b(?:change\w*|up|down|gain\w*|los\w+)\b/],
  ['changes in bowel habits', /\bbowel\b/, /\b(?:habits?|changes?|movements? (?:changed|different))\b/],
  ['vision problems', /\b(?:vision|eyesight|seeing)\b/, /\b(?:problems?|trouble|changes?|issues?|worse)\b/],
  ['hearing loss', /\bhearing\b/, /\b(?:problems?|trouble|changes?|loss|worse|fine|okay)\b/],
];

/** What a question may name in one word: "and your hearing?". */
const ASKED: readonly (readonly [string, RegExp])[] = [
  ['ear pain', /\b(?:which ear|(?:her|his|your|the) ears? (?:doing|feel))\b/],
  ['hearing loss', /\bhearing\b/],
  ['vision problems', /\b(?:vision|eyesight|your eyes)\b/],
  ['changes in bowel habits', /\bbowels?\b/],
  ['weight change', /\bweight\b/],
];

/** Symptoms a question names, with the one-word topics a question may ask about. */
export function topicsAsked(text: string, fallbackLocation?: string): Found[] {
  const found = symptomsIn(text, fallbackLocation);
  if (found.length > 0) return found;
  return ASKED.flatMap(([name, pattern]) => {
    const match = pattern.exec(text);
    return match === null ? [] : [{ name, start: match.index, end: match.index + match[0].length }];
  });
}

/** Functions asked about: a "no" or "not much" to them is the problem. */
const FUNCTIONS: readonly (readonly [string, RegExp])[] = [
  [
    'decreased appetite',
    /\b(?:is|are) (?:she|he|they|you) eating\b|\bhow(?: is|'s) (?:her|his|your) (?:appetite|eating)\b/,
  ],
  [
    'insomnia',
    /\bhow(?: is|'s| are) (?:your|her|his) sleep(?:ing)?\b|\b(?:are|is) (?:you|she|he) sleeping (?:okay|ok|well|alright)\b/,
  ],
  ['memory problems', /\bhow(?: has| is|'s) (?:your|her|his) memory\b/],
];

const TRIGGER_WORDS: readonly (readonly [RegExp, string])[] = [
  [PAIN_WORDS, 'pain'],
  [SWELLING_WORDS, 'swelling'],
  [STIFFNESS_WORDS, 'stiffness'],
  [/\b(?:bother|bothers|bothering|giving you trouble|giving her trouble|giving him trouble|trouble with)\b/, 'pain'],
  [/\b(?:bumped|banged|twisted|injured|sprained|hit (?:my|her|his))\b/, 'injury'],
  [/\b(?:clicks|clicking|pops|popping|locks|locking|catches|catching|grinds|grinding)\b/, 'clicking'],
  [/\b(?:pulling at|tugging at|rubbing (?:her|his) (?:ear|eye))\b/, 'pain'],
];

function locatedComplaints(text: string, found: readonly Found[], fallbackLocation: string | undefined): Found[] {
  const located: Found[] = [];
  for (const [words, complaint] of TRIGGER_WORDS) {
    const pattern = new RegExp(words.source, 'g');
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const start = match.index;
      if ([...found, ...located].some((mention) => start >= mention.start - 30 && start <= mention.end + 5)) continue;
      const clause = clauseAround(text, start);
      const location = locationIn(clause.text)?.location ?? fallbackLocation;
      if (location === undefined) continue;
      located.push({ name: `${location} ${complaint}`, start, end: start + match[0].length });
    }
  }
  return located;
}

/** A symptom word as the verb of what the clinician does: "we'll numb it up" is the anaesthetic. */
const CLINICIAN_ACTION = /\bnumb (?:it|this|that|the (?:area|skin|spot)|you|him|her)\b/g;

type LexiconMention = Mention<SymptomEntry>;

/** A growth the skin system names ("lesion", "mass", "nodule") said of an organ inside the body. */
const ORGAN_BEFORE = new RegExp(`${INTERNAL_ORGANS.source}\\s+(?:\\w+\\s+)?$`);
const ORGAN_AFTER = new RegExp(
  `^\\s+(?:on|in|of|at) (?:the |his |her |your |my |a )?(?:\\w+ )?${INTERNAL_ORGANS.source}`,
);

function internalGrowth(text: string, mention: LexiconMention): boolean {
  return (
    ORGAN_BEFORE.test(text.slice(Math.max(0, mention.start - 40), mention.start)) ||
    ORGAN_AFTER.test(text.slice(mention.end))
  );
}

/** "Fall" as the season: "this fall", "the fall pollen", "checked in the fall" (but "hurt it in the fall" is one). */
const SEASON_BEFORE = /\b(?:this|last|next|every|early|late) $/;
const SEASON_AFTER = /^ (?:pollen|allergies|season|semester|weather|leaves|break|and winter|and spring)\b/;
const INJURY = /\b(?:hurt|injur\w*|broke|fractur\w*|hit|landed|twist\w*|sprain\w*|bruis\w*|slipp\w*|tripp\w*)\b/;

/** Weight to be lost on purpose ("I've been trying to lose weight") is a goal, not a change to chart. */
const WEIGHT_GOAL =
  /\b(?:try|trying|tried|want|wants|wanted|need|needs|needed|should|have to|has to|going to|plan|planning|hope|hoping|working on|goal is)(?: to)? (?:\w+ ){0,2}lose\b/;

function weightAsGoal(text: string, mention: LexiconMention): boolean {
  return WEIGHT_GOAL.test(clauseAround(text, mention.start).text);
}

function fallAsSeason(text: string, mention: LexiconMention): boolean {
  if (text.slice(mention.start, mention.end) !== 'fall') return false;
  const before = text.slice(Math.max(0, mention.start - 12), mention.start);
  const after = text.slice(mention.end);
  if (SEASON_AFTER.test(after)) return true;
  if (/\bin the $/.test(before)) return !INJURY.test(clauseAround(text, mention.start).text);
  return SEASON_BEFORE.test(before);
}

/** Regurgitation through a heart valve ("moderate mitral regurgitation") is an echo finding, not food coming back up. */
const VALVE_BEFORE = /\b(?:mitral|aortic|tricuspid|pulmonic|pulmonary|valvular|valve)\s+$/;

function valveRegurgitation(text: string, mention: LexiconMention): boolean {
  return VALVE_BEFORE.test(text.slice(Math.max(0, mention.start - 20), mention.start));
}

/** "Cut back on salt", "cut it in half": the verb of cutting down, not a wound. */
const CUT_DOWN_AFTER = /^ (?:(?:it|them|that|this|those|these) )?(?:back|down|out|off|in half)\b/;

function cutDown(text: string, mention: LexiconMention): boolean {
  return text.slice(mention.start, mention.end) === 'cut' && CUT_DOWN_AFTER.test(text.slice(mention.end));
}

/** The symptoms whose words can be said of something else, and how to tell (by the symptom's name). */
const SAID_OF_SOMETHING_ELSE: Readonly<Record<string, (text: string, mention: LexiconMention) => boolean>> = {
  'skin lesion': internalGrowth,
  mass: internalGrowth,
  falls: fallAsSeason,
  'weight loss': weightAsGoal,
  regurgitation: valveRegurgitation,
  wound: cutDown,
};

/** Every symptom `text` names, in order; `fallbackLocation` is the body part just talked about. */
export function symptomsIn(text: string, fallbackLocation?: string): Found[] {
  const actions = [...text.matchAll(CLINICIAN_ACTION)].map((action) => action.index);
  const found: Found[] = MATCHER.find(text)
    .filter(
      (mention) =>
        !actions.includes(mention.start) && !(SAID_OF_SOMETHING_ELSE[mention.entry.name]?.(text, mention) ?? false),
    )
    .map((mention) => ({ name: mention.entry.name, start: mention.start, end: mention.end }));
  for (const [name, first, second, replaces] of COMPOUNDS) {
    const a = first.exec(text);
    if (a === null || !second.test(text) || found.some((mention) => mention.name === name)) continue;
    if (name === 'weight change' && WEIGHT_GOAL.test(text)) continue;
    if (replaces !== undefined) found.splice(0, found.length, ...found.filter((mention) => mention.name !== replaces));
    found.push({ name, start: a.index, end: a.index + a[0].length });
  }
  for (const [name, pattern] of FUNCTIONS) {
    const match = pattern.exec(text);
    if (match !== null) found.push({ name, start: match.index, end: match.index + match[0].length, inverted: true });
  }
  found.push(...locatedComplaints(text, found, fallbackLocation));
  return found.sort((a, b) => a.start - b.start);
}
