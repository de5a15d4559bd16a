import { inflateSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { flattened, pdftotextInstalled, pdfText } from '@chartwright/testing/pdf-text.js';
import { renderDocumentPdf } from './layout.js';
import { writePdf } from './pdf-writer.js';
import { encodeWinAnsi } from './win-ansi.js';

const LONG_LETTER = [
  'Dear Dr. Lee,',
  '',
  'REASON FOR REFERRAL',
  'Chest pain on exertion for three weeks, relieved by rest. '.repeat(20),
  '',
  'CURRENT MEDICATIONS',
  ...Array.from({ length: 60 }, (_, index) => `- Medication ${index + 1} 10 mg, once daily`),
  '',
  `An identifier that cannot wrap: ${'X'.repeat(300)}`,
  '',
  'Kind regards,',
].join('\n');

describe('the PDF writer', () => {
  it('writes a cross-reference table whose every offset points at its object', () => {
    const pdf = renderDocumentPdf({ title: 'Referral letter', content: LONG_LETTER, fields: false });
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.endsWith('%%EOF\n')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
    expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
    const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(startxref)) ?? [];
    expect(first).toBe('0');
    const entries = text
      .slice(startxref)
      .split('\n')
      .slice(2, 2 + Number(count));
    expect(entries[0]).toBe('0000000000 65535 f ');
    entries.slice(1).forEach((entry, index) => {
      expect(entry).toMatch(/^\d{10} 00000 n $/);
      const offset = Number(entry.slice(0, 10));
      expect(text.slice(offset, offset + `${index + 1} 0 obj\n`.length)).toBe(`${index + 1} 0 obj\n`);
    });
    expect(text).toContain(`/Size ${Number(count)} `);
  });

  it('compresses each page’s content, with the stream length it declares', () => {
    const pdf = writePdf(
      [{ texts: [{ x: 72, y: 700, font: 'bold', size: 12, codes: encodeWinAnsi('(Hello) \\ world') }], rules: [] }],
      { title: 'T' },
    );
    const text = pdf.toString('latin1');
    const match = /<< \/Length (\d+) \/Filter \/FlateDecode >>\nstream\n/.exec(text);
    expect(match).not.toBeNull();
    const start = (match?.index ?? 0) + (match?.[0].length ?? 0);
    const length = Number(match?.[1]);
    expect(text.slice(start + length, start + length + 10)).toBe('\nendstream');
    const content = inflateSync(pdf.subarray(start, start + length)).toString('latin1');
    expect(content).toBe('BT 0 g /F2 12 Tf 1 0 0 1 72 700 Tm (\\(Hello\\) \\\\ world) Tj ET');
  });

  it('gives the same bytes for the same document, whenever it is rendered', () => {
    const render = () => renderDocumentPdf({ title: 'Form', content: 'Name: Jane', fields: true });
    expect(render().equals(render())).toBe(true);
  });
});

describe('WinAnsi encoding', () => {
  it('keeps Latin-1 and typographic punctuation, and falls back to base letters, then "?"', () => {
    expect(encodeWinAnsi('Zoë – “ok” • 5 €')).toEqual([
      90, 111, 235, 32, 150, 32, 147, 111, 107, 148, 32, 149, 32, 53, 32, 128,
    ]);
    expect(encodeWinAnsi('Łódź Đặng')).toEqual(encodeWinAnsi('Lódz Dang'));
    expect(encodeWinAnsi('李\u0007\tx')).toEqual([63, 32, 120]);
  });
});

describe.skipIf(!pdftotextInstalled())('the PDF in a real reader', () => {
  it('reads back every word of a multi-page document, headings and bullets included', () => {
    const pdf = renderDocumentPdf({ title: 'Referral letter', content: LONG_LETTER, fields: false });
    const text = pdfText(pdf);
    const pages = text.split('\f').filter((page) => page.trim() !== '');
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, index) => expect(page).toContain(`Page ${index + 1} of ${pages.length}`));
    const all = flattened(text);
    expect(all).toContain('REASON FOR REFERRAL');
    expect(all).toContain(flattened('Chest pain on exertion for three weeks, relieved by rest. '.repeat(20)));
    for (let index = 1; index <= 60; index++) expect(all).toContain(`• Medication ${index} 10 mg, once daily`);
    // A word wider than the page is broken across lines, never cut off.
    expect(text.replace(/\s+/g, '')).toContain('X'.repeat(300));
  });

  it('shows accented names and typographic punctuation as written', () => {
    const pdf = renderDocumentPdf({
      title: 'Letter — Zoë',
      content: 'Dear Zoë Ångström,\n“Rest” – and fluids.',
      fields: false,
    });
    expect(flattened(pdfText(pdf))).toContain('Dear Zoë Ångström, “Rest” – and fluids.');
  });
});
