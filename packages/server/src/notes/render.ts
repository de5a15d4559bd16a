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
  return sections
    .filter((section) => section.sentences.length > 0)
    .map(
      (section) => `${section.label.toUpperCase()}\n\n${section.sentences.map((sentence) => sentence.text).join('\n')}`,
    )
    .join('\n\n');
}
