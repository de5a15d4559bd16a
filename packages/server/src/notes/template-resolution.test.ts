import { describe, expect, it } from 'vitest';

import { resolveTemplate } from './template-resolution.js';
import { CURATED_TEMPLATES } from './templates.js';

const soap = CURATED_TEMPLATES.find((template) => template.id === 'soap');

describe('resolveTemplate', () => {
  it('uses the curated SOAP template when there is no noteConfig', () => {
    const resolved = resolveTemplate();
    expect(resolved.template).toBe(soap);
    expect(resolved.sectionKeys.map((entry) => entry.hostKey)).toEqual([
      'subjective',
      'objective',
      'assessment',
      'plan',
    ]);
  });

  it('resolves the classic labels to SOAP, ignoring case and surrounding space, under the host keys', () => {
    const resolved = resolveTemplate([
      { key: 's', label: ' subjective ' },
      { key: 'o', label: 'OBJECTIVE' },
      { key: 'a', label: 'Assessment' },
      { key: 'p', label: 'plan\t' },
    ]);
    expect(resolved.template.id).toBe('soap');
    expect(resolved.sectionKeys).toEqual([
      { templateKey: 'subjective', hostKey: 's', label: 'Subjective' },
      { templateKey: 'objective', hostKey: 'o', label: 'Objective' },
      { templateKey: 'assessment', hostKey: 'a', label: 'Assessment' },
      { templateKey: 'plan', hostKey: 'p', label: 'Plan' },
    ]);
  });

  it('does not treat the SOAP labels in another order, or with more sections, as SOAP', () => {
    const reordered = resolveTemplate([
      { key: 'a', label: 'Assessment' },
      { key: 'p', label: 'Plan' },
      { key: 's', label: 'Subjective' },
      { key: 'o', label: 'Objective' },
    ]);
    expect(reordered.template.id).toMatch(/^headings_/);
    const extended = resolveTemplate([
      { key: 's', label: 'Subjective' },
      { key: 'o', label: 'Objective' },
      { key: 'a', label: 'Assessment' },
      { key: 'p', label: 'Plan' },
      { key: 'f', label: 'Follow-up' },
    ]);
    expect(extended.template.id).toMatch(/^headings_/);
  });

  it('builds a synthetic heading template that carries the host keys', () => {
    const resolved = resolveTemplate([
      { key: 'reason', label: 'Reason for visit' },
      { key: 'hpi', label: 'History' },
      { key: 'plan_1', label: 'Plan ' },
    ]);
    expect(resolved.template.id).toMatch(/^headings_[A-Za-z0-9_-]{16}$/);
    expect(resolved.template.sections.map((section) => [section.key, section.label])).toEqual([
      ['reason', 'Reason for visit'],
      ['hpi', 'History'],
      ['plan_1', 'Plan'],
    ]);
    expect(resolved.sectionKeys.map((entry) => entry.hostKey)).toEqual(['reason', 'hpi', 'plan_1']);
  });

  it('derives a stable id from the labels alone', () => {
    const first = resolveTemplate([
      { key: 'a', label: 'Reason for visit' },
      { key: 'b', label: 'Plan' },
    ]);
    const sameLabels = resolveTemplate([
      { key: 'x', label: ' reason  for VISIT ' },
      { key: 'y', label: 'plan' },
    ]);
    const otherLabels = resolveTemplate([
      { key: 'a', label: 'Reason for visit' },
      { key: 'b', label: 'Plans' },
    ]);
    expect(sameLabels.template.id).toBe(first.template.id);
    expect(otherLabels.template.id).not.toBe(first.template.id);
  });
});
