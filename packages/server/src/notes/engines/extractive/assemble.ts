import type { Template } from '@chartwright/protocol';

import type { GeneratedNote, NoteSentence } from '../../generator.js';

import type { Kind } from './lexicons.js';
import type { SectionRouting } from './sections.js';

/**
 * Picks the note's sentences and lays them out: the most relevant candidates first until the
 * note has its length, near-duplicates dropped, each section's sentences in the order they were
 * said, context-derived sentences and the chief complaint ahead of the rest of their section.
 */
export interface Candidate {
  text: string;
  kind: Kind;
  score: number;
  order: number;
  turns: number[];
  context: string[];
  /** Content stems, for spotting repeats. */
  stems: Set<string>;
  /** Always kept, ahead of its section (context lists, the chief complaint). */
  pinned: boolean;
  /** Not a question nor small talk: may fill a heading by wording even when it scores low. */
  usable: boolean;
}

/** Below this a candidate is not used, however short the note. */
export const MIN_SCORE = 0.3;

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const stem of a) if (b.has(stem)) shared++;
  return shared;
}

/** Says nothing the other does not: most of its content words are already there. */
function isRepeat(candidate: Candidate, kept: Candidate): boolean {
  if (candidate.text.toLowerCase() === kept.text.toLowerCase()) return true;
  if (candidate.stems.size === 0) return false;
  const shared = overlap(candidate.stems, kept.stems);
  return shared / candidate.stems.size >= 0.75 && candidate.stems.size <= kept.stems.size + 1;
}

const wordCount = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;

export function assemble(
  template: Template,
  routing: SectionRouting,
  candidates: readonly Candidate[],
  budgetWords: number,
): GeneratedNote {
  const placed = new Map<string, Candidate[]>(template.sections.map((section) => [section.key, []]));
  const kept: Candidate[] = [];
  let words = 0;
  const ranked = [...candidates].sort(
    (a, b) => Number(b.pinned) - Number(a.pinned) || b.score - a.score || a.order - b.order,
  );
  for (const candidate of ranked) {
    if (!candidate.pinned && (candidate.score < MIN_SCORE || words >= budgetWords)) continue;
    const key = routing.sectionOf.get(candidate.kind);
    if (key === undefined) continue;
    if (kept.some((other) => isRepeat(candidate, other))) continue;
    kept.push(candidate);
    placed.get(key)?.push(candidate);
    words += wordCount(candidate.text);
  }
  // Headings the engine does not recognise take the unused statements that share their words.
  for (const { key, stems } of routing.byWording) {
    if (stems.size === 0) continue;
    const matches = candidates
      .filter((candidate) => candidate.usable && !kept.includes(candidate))
      .map((candidate) => ({ candidate, shared: overlap(candidate.stems, stems) }))
      .filter(({ shared }) => shared > 0)
      .sort((a, b) => b.shared - a.shared || b.candidate.score - a.candidate.score)
      .slice(0, 4)
      .map(({ candidate }) => candidate);
    for (const candidate of matches) {
      if (kept.some((other) => isRepeat(candidate, other))) continue;
      kept.push(candidate);
      placed.get(key)?.push(candidate);
    }
  }
  return {
    sections: template.sections.map((section) => ({
      key: section.key,
      label: section.label,
      sentences: (placed.get(section.key) ?? [])
        .sort((a, b) => Number(b.pinned) - Number(a.pinned) || a.order - b.order)
        .map((candidate): NoteSentence => ({
          text: candidate.text,
          evidence: { turns: [...new Set(candidate.turns)].sort((a, b) => a - b), context: [...candidate.context] },
        })),
    })),
  };
}
