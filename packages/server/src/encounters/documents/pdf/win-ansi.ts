/** The WinAnsi codes 128–159 stand for these characters (the rest of 32–255 is Latin-1). */
const CP1252_EXTRAS: ReadonlyMap<number, number> = new Map([
  [0x20ac, 128],
  [0x201a, 130],
  [0x0192, 131],
  [0x201e, 132],
  [0x2026, 133],
  [0x2020, 134],
  [0x2021, 135],
  [0x02c6, 136],
  [0x2030, 137],
  [0x0160, 138],
  [0x2039, 139],
  [0x0152, 140],
  [0x017d, 142],
  [0x2018, 145],
  [0x2019, 146],
  [0x201c, 147],
  [0x201d, 148],
  [0x2022, 149],
  [0x2013, 150],
  [0x2014, 151],
  [0x02dc, 152],
  [0x2122, 153],
  [0x0161, 154],
  [0x203a, 155],
  [0x0153, 156],
  [0x017e, 158],
  [0x0178, 159],
]);

/** Letters Unicode does not decompose into a base letter, with the one a reader expects. */
const BASE_LETTERS: ReadonlyMap<string, string> = new Map([
  ['Ł', 'L'],
  ['ł', 'l'],
  ['Đ', 'D'],
  ['đ', 'd'],
  ['Ħ', 'H'],
  ['ħ', 'h'],
  ['ı', 'i'],
]);

const QUESTION_MARK = 63;

function directCode(codePoint: number): number | undefined {
  if (codePoint >= 32 && codePoint <= 126) return codePoint;
  if (codePoint >= 160 && codePoint <= 255) return codePoint;
  return CP1252_EXTRAS.get(codePoint);
}

/**
 * A character as a WinAnsi code, the encoding the standard PDF fonts read. A character outside it
 * falls back to its base letter when it has one (ő → o, ł → l), else to "?": the text stays readable and
 * nothing is silently dropped.
 */
export function winAnsiCode(character: string): number {
  const codePoint = character.codePointAt(0) ?? QUESTION_MARK;
  const direct = directCode(codePoint);
  if (direct !== undefined) return direct;
  const base = (BASE_LETTERS.get(character) ?? character.normalize('NFKD')).codePointAt(0);
  return (base === undefined ? undefined : directCode(base)) ?? QUESTION_MARK;
}

/** Text as WinAnsi codes: tabs become spaces, other control characters are left out. */
export function encodeWinAnsi(text: string): number[] {
  const codes: number[] = [];
  for (const character of text.normalize('NFC')) {
    if (character === '\t') codes.push(32);
    else if ((character.codePointAt(0) ?? 0) >= 32) codes.push(winAnsiCode(character));
  }
  return codes;
}
