/** Relatives as said ("my mom", "her father"), with the relation a chart names. */
export const RELATIVES: readonly (readonly [RegExp, string])[] = [
  [/\b(?:mother|mom|mum|mommy|mama)\b/, 'mother'],
  [/\b(?:father|dad|daddy|papa)\b/, 'father'],
  [/\b(?:sister|sisters)\b/, 'sister'],
  [/\b(?:brother|brothers)\b/, 'brother'],
  [/\b(?:grandmother|grandma|granny|nana)\b/, 'grandmother'],
  [/\b(?:grandfather|grandpa|granddad)\b/, 'grandfather'],
  [/\b(?:grandparents?)\b/, 'grandparent'],
  [/\b(?:aunt|auntie)\b/, 'aunt'],
  [/\buncle\b/, 'uncle'],
  [/\bcousins?\b/, 'cousin'],
  [/\b(?:son|sons)\b/, 'son'],
  [/\b(?:daughter|daughters)\b/, 'daughter'],
  [/\b(?:parents)\b/, 'parents'],
  [/\b(?:siblings)\b/, 'sibling'],
  [/\b(?:children|kids)\b/, 'child'],
];

/** A relative named as the one something is about: "my mother", "her dad", "his sister's". */
const POSSESSED_RELATIVE =
  /\b(?:my|his|her|your|their|our|the patient's|patient's)\s+(?:(?:late|older|younger|big|little|maternal|paternal|twin)\s+)?([a-z]+)\b/g;

/**
 * The relation of the relative named in `text` as someone's own, if one is; of the last one named
 * when there are several, the one what follows is about ("my mom had lymphoma and my dad had
 * prostate cancer").
 */
export function relativeIn(text: string): string | undefined {
  let last: string | undefined;
  for (const match of text.matchAll(POSSESSED_RELATIVE)) {
    // "My grandmother on my mom's side": the side of the family, not another relative.
    if (/^(?:'s)? side\b/.test(text.slice(match.index + match[0].length))) continue;
    const word = match[1] ?? '';
    last = RELATIVES.find(([pattern]) => pattern.test(word))?.[1] ?? last;
  }
  return last;
}

/** The relation named anywhere in `text` ("mother", "grandfather"), possessed or not. */
export function relationNamed(text: string): string | undefined {
  return RELATIVES.find(([pattern]) => pattern.test(text))?.[1];
}
