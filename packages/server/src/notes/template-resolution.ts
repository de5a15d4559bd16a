import { createHash } from 'node:crypto';

import type { Template } from '@chartwright/protocol';

import { CURATED_TEMPLATES } from './templates.js';

/** A host's section as given in noteConfig.sections. */
export interface HostSection {
  key: string;
  label: string;
}

/** The template a note is generated with, and which host key each of its sections is returned under. */
export interface ResolvedTemplate {
  template: Template;
  /** In template order: the template's section key, and the key the host wants it under (PUSH_NOTE.sections). */
  sectionKeys: { templateKey: string; hostKey: string; label: string }[];
}

const SOAP_LABELS = ['subjective', 'objective', 'assessment', 'plan'];

const normalizeLabel = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

function soap(): Template {
  const template = CURATED_TEMPLATES.find((candidate) => candidate.id === 'soap');
  if (template === undefined) throw new Error('the curated SOAP template is missing from the registry');
  return template;
}

/**
 * Resolves noteConfig sections to a template (interface: WidgetNoteConfig rules):
 * - no sections: the curated SOAP template, returned under its own keys;
 * - exactly Subjective, Objective, Assessment, Plan (in that order, ignoring case and surrounding
 *   whitespace): the curated SOAP template, returned under the host's keys;
 * - anything else: a synthetic heading template, one section per label, carrying the host's keys.
 *   Its id is derived from the normalized labels alone, so the same headings always give the same
 *   template id, whatever keys a host names them with.
 */
export function resolveTemplate(sections?: readonly HostSection[]): ResolvedTemplate {
  const curated = soap();
  if (sections === undefined || sections.length === 0) {
    return {
      template: curated,
      sectionKeys: curated.sections.map((section) => ({
        templateKey: section.key,
        hostKey: section.key,
        label: section.label,
      })),
    };
  }
  const labels = sections.map((section) => normalizeLabel(section.label));
  if (labels.length === SOAP_LABELS.length && labels.every((label, index) => label === SOAP_LABELS[index])) {
    return {
      template: curated,
      sectionKeys: curated.sections.map((section, index) => ({
        templateKey: section.key,
        hostKey: sections[index]?.key ?? section.key,
        label: section.label,
      })),
    };
  }
  const digest = createHash('sha256').update(labels.join('\n')).digest('base64url').slice(0, 16);
  const template: Template = {
    id: `headings_${digest}`,
    name: 'Custom headings',
    description: `A note with the host's headings: ${sections.map((section) => section.label.trim()).join(', ')}.`,
    version: 1,
    sections: sections.map((section) => ({
      key: section.key,
      label: section.label.trim(),
      description: `Content that belongs under the heading "${section.label.trim()}".`,
    })),
  };
  return {
    template,
    sectionKeys: template.sections.map((section) => ({
      templateKey: section.key,
      hostKey: section.key,
      label: section.label,
    })),
  };
}
