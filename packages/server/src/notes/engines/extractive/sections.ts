import type { Template } from '@chartwright/protocol';

import { FRAMING_WORDS, KINDS, LABEL_KINDS, type Kind } from './lexicons.js';
import { contentStems } from './text.js';

/**
 * Which template section each kind of content goes to. A section claims the kinds its heading
 * names ("Assessment and Plan" claims both); kinds no heading names go to a section whose
 * guidance names them ("Physical Exam: Vital signs and examination findings" takes vitals), then
 * along a fallback chain to the nearest kind a section did claim (vitals → exam, ROS → history).
 * Sections that claim nothing are filled by wording: the statements that share words with their
 * heading and guidance.
 */
export interface SectionRouting {
  /** Section key for each kind the template has room for. */
  sectionOf: Map<Kind, string>;
  /** Sections filled by wording, with the stems they look for. */
  byWording: { key: string; stems: Set<string> }[];
}

/** Where a kind goes when no section asks for it, nearest first. */
const FALLBACKS: Record<Kind, readonly Kind[]> = {
  chief_complaint: ['hpi'],
  hpi: ['chief_complaint'],
  past_history: ['hpi'],
  medications: ['past_history', 'hpi'],
  allergies: ['medications', 'past_history', 'hpi'],
  family_history: ['past_history', 'social_history', 'hpi'],
  social_history: ['hpi'],
  ros: ['hpi'],
  vitals: ['exam', 'results'],
  exam: ['vitals', 'results'],
  results: ['exam', 'assessment'],
  assessment: ['plan'],
  plan: ['assessment', 'follow_up'],
  follow_up: ['plan'],
};

function kindsNamedBy(text: string): Kind[] {
  const low = text.toLowerCase();
  return LABEL_KINDS.filter(([pattern]) => pattern.test(low)).flatMap(([, kinds]) => kinds);
}

/** The generic guidance of a host heading adds nothing beyond its label. */
const GENERIC_GUIDANCE = 'Content that belongs under the heading ';

export function routeSections(template: Template): SectionRouting {
  const sectionOf = new Map<Kind, string>();
  const claimed = new Set<string>();
  for (const section of template.sections) {
    for (const kind of kindsNamedBy(section.label)) {
      if (!sectionOf.has(kind)) {
        sectionOf.set(kind, section.key);
        claimed.add(section.key);
      }
    }
  }
  for (const section of template.sections) {
    if (section.description.startsWith(GENERIC_GUIDANCE)) continue;
    for (const kind of kindsNamedBy(section.description)) {
      if (!sectionOf.has(kind)) {
        sectionOf.set(kind, section.key);
        claimed.add(section.key);
      }
    }
  }
  for (const kind of KINDS) {
    if (sectionOf.has(kind)) continue;
    const target = FALLBACKS[kind].find((fallback) => sectionOf.has(fallback) && !FALLBACKS[fallback].includes(kind));
    const key = target === undefined ? undefined : sectionOf.get(target);
    if (key !== undefined) sectionOf.set(kind, key);
  }
  // A second pass lets chains through kinds that were only just routed (allergies → medications).
  for (const kind of KINDS) {
    if (sectionOf.has(kind)) continue;
    const key = FALLBACKS[kind].map((fallback) => sectionOf.get(fallback)).find((candidate) => candidate !== undefined);
    if (key !== undefined) sectionOf.set(kind, key);
  }
  const byWording = template.sections
    .filter((section) => !claimed.has(section.key))
    .map((section) => ({
      key: section.key,
      stems: new Set(
        contentStems(
          section.description.startsWith(GENERIC_GUIDANCE) ? section.label : `${section.label} ${section.description}`,
        ).filter((stem) => !FRAMING_WORDS.has(stem)),
      ),
    }));
  return { sectionOf, byWording };
}
