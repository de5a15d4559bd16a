/**
 * Splits a patient's full name into a first and a last name, for EMRs that send `patient.name` but
 * not `firstName`/`lastName`. The rules, applied in this order:
 *
 * 1. Whitespace: leading and trailing whitespace is removed and every run of whitespace (tabs, line
 *    breaks, non-breaking spaces) counts as one space. A name of only whitespace gives two empty
 *    strings.
 * 2. Suffixes are not part of the last name: generational suffixes (Jr, Sr, II, III, IV, 2nd, 3rd)
 *    and credentials (MD, M.D., PhD, Ph.D., DDS, DMD, RN, NP, Esq), in any case and with or without a
 *    trailing dot, are dropped from the end of the name — also when set off by a comma, as in
 *    "John Smith, Jr." or "Jane Doe, MD", and from either side of the comma form ("Smith Jr., John",
 *    "Smith, John Jr."). "V", "DO" and "PA" are not treated as suffixes because they are also
 *    initials and surnames.
 * 3. Comma form: "Last, First [Middle]" — the text before the first comma is the last name and the
 *    first word after it the first name. Particles that trail the given names belong to the last name
 *    ("Beethoven, Ludwig van" → last "van Beethoven"). If either side of the comma is empty the comma
 *    is ignored.
 * 4. Honorifics (Dr, Mr, Mrs, Ms, Mx, Miss, Prof, Rev, with or without a dot) are dropped from the
 *    start of the given names.
 * 5. The first word is the first name. Middle names are dropped: the first name keeps only the first
 *    given name ("John Michael Smith" → first "John", last "Smith"); the full name stays in `name`.
 * 6. The last word is the last name, together with the particles right before it (van, von, der, den,
 *    de, des, del, della, di, da, das, do, dos, du, la, le, los, las, ten, ter, bin, ibn, al, el,
 *    st or st., saint; in any case): "Ludwig van Beethoven" → "van Beethoven", "Maria de la Cruz" →
 *    "de la Cruz".
 *    The first word is never taken as a particle ("Van Morrison" → first "Van"), and a particle that is
 *    itself the last word is simply the last name ("Anh Le" → last "Le").
 * 7. A single word is the first name and the last name is empty ("Cher" → first "Cher", last "").
 * 8. Words are never split: hyphenated names stay whole ("Mary Smith-Jones" → last "Smith-Jones"), and
 *    no letter case is changed.
 * 9. Rules 2 and 4 never remove the only remaining word: "Dr." alone is the first name "Dr.". An
 *    honorific before a single name leaves a single name: "Dr. Smith" → first "Smith", last "" (rule 7
 *    wins over guessing that it was a last name).
 */
const HONORIFIC = /^(?:dr|mr|mrs|ms|mx|miss|prof|rev)\.?$/i;
const SUFFIX = /^(?:jr|sr|ii|iii|iv|2nd|3rd|md|m\.d|phd|ph\.d|dds|dmd|rn|np|esq)\.?$/i;
// One word each; "van der", "de la" and the like are runs of these.
const PARTICLES = new Set(
  'van von der den de des del della di da das do dos du la le los las ten ter bin ibn al el st st. saint'.split(' '),
);
const isParticle = (word) => PARTICLES.has(word.toLowerCase());
function words(text) {
  return text.split(' ').filter((word) => word !== '');
}
/** Drops honorifics from the front, keeping at least one word. */
function withoutHonorifics(list) {
  let start = 0;
  while (start < list.length - 1 && HONORIFIC.test(list[start] ?? '')) start++;
  return list.slice(start);
}
/** Drops suffixes from the end, keeping at least one word. */
function withoutSuffixes(list) {
  let end = list.length;
  while (end > 1 && SUFFIX.test(list[end - 1] ?? '')) end--;
  return list.slice(0, end);
}
/** Drops comma-separated trailing parts that hold only suffixes: "John Smith, Jr., MD" → "John Smith". */
function withoutSuffixParts(parts) {
  let end = parts.length;
  while (end > 1) {
    const part = words(parts[end - 1] ?? '');
    if (part.length > 0 && !part.every((word) => SUFFIX.test(word))) break;
    end--;
  }
  return parts.slice(0, end);
}
function fromGivenFirst(list) {
  const given = withoutSuffixes(withoutHonorifics(list));
  const [firstName = '', ...rest] = given;
  if (rest.length === 0) return { firstName, lastName: '' };
  let start = given.length - 1;
  while (start > 1 && isParticle(given[start - 1] ?? '')) start--;
  return { firstName, lastName: given.slice(start).join(' ') };
}
function fromLastFirst(lastPart, givenPart) {
  const given = withoutSuffixes(withoutHonorifics(givenPart));
  let end = given.length;
  while (end > 1 && isParticle(given[end - 1] ?? '')) end--;
  const lastName = [...given.slice(end), ...withoutSuffixes(lastPart)].join(' ');
  return { firstName: given[0] ?? '', lastName };
}
/** Splits a full name into first and last name by the rules at the top of this module. */
export function parsePersonName(name) {
  const normalized = name.replace(/\s+/g, ' ').trim();
  const parts = withoutSuffixParts(normalized.split(','));
  const [lastPart = '', ...givenParts] = parts;
  const lastWords = words(lastPart);
  const givenWords = words(givenParts.join(' '));
  if (givenParts.length > 0 && lastWords.length > 0 && givenWords.length > 0) {
    return fromLastFirst(lastWords, givenWords);
  }
  return fromGivenFirst(words(parts.join(' ')));
}
//# sourceMappingURL=person-name.js.map
