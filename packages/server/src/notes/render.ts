import type { GeneratedSection } from './generator.js';

/** A section's text: its sentences, one paragraph. */
export function sectionText(section: GeneratedSection): string {
  return section.sentences.map((sentence) => sentence.text).join(' ');
}

/**
 * The full note: each section with content under its upper-case heading, separated by blank
 * lines, the way clinical notes are laid out. Sections without content are left out of the text
 * (they are still in the structured sections, with empty text).
 */
export function renderNote(sections: readonly GeneratedSection[]): string {
  return renderSectionTexts(
    sections.map((section) => ({
      label: section.label,
      text: section.sentences.map((sentence) => sentence.text).join('\n'),
    })),
  );
}

/** The same layout for sections as text, e.g. after a clinician edited them. */
export function renderSectionTexts(sections: readonly { label: string; text: string }[]): string {
  return sections
    .filter((section) => section.text.trim() !== '')
    .map((section) => `${section.label.toUpperCase()}\n\n${section.text}`)
    .join('\n\n');
}
