import { HELVETICA_BOLD_WIDTHS, HELVETICA_WIDTHS } from './helvetica-metrics.js';
import { PAGE_HEIGHT, PAGE_WIDTH, writePdf, type PdfFont, type PdfPage, type PdfTextRun } from './pdf-writer.js';
import { encodeWinAnsi } from './win-ansi.js';

const MARGIN_X = 64;
const TOP = PAGE_HEIGHT - 64;
const BOTTOM = 72;
const FOOTER_Y = 40;
const TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
const TITLE_SIZE = 16;
const BODY_SIZE = 10.5;
const LEADING = 14.5;
const FOOTER_SIZE = 8;
const PARAGRAPH_GAP = 6;
const HEADING_GAP = 8;
const BULLET_INDENT = 14;
/** What a continued form field is indented by, so its value lines up under itself. */
const FIELD_INDENT = 12;
const BULLET = 149;

interface Span {
  font: PdfFont;
  text: string;
}

interface Block {
  spans: Span[];
  /** Left indent of the first line, and of the lines it wraps onto. */
  indent: number;
  wrapIndent: number;
  gapBefore: number;
  heading: boolean;
  bullet: boolean;
}

interface Piece {
  font: PdfFont;
  codes: number[];
}

const WIDTHS: Readonly<Record<PdfFont, readonly number[]>> = { regular: HELVETICA_WIDTHS, bold: HELVETICA_BOLD_WIDTHS };

function widthOf(codes: readonly number[], font: PdfFont, size: number): number {
  let units = 0;
  for (const code of codes) units += WIDTHS[font][code - 32] ?? 556;
  return (units * size) / 1000;
}

/** A line in capitals (with at least two letters) is a heading, as clinical letters write them. */
const HEADING = /^(?=(?:[^A-Za-z]*[A-Z]){2})[A-Z0-9][A-Z0-9 ,.&'’()/:-]*$/;
const BULLET_LINE = /^[-*•]\s+(.*)$/;
const FIELD_LINE = /^([^:]{1,60}):\s?(.*)$/;

/**
 * Reads a document's text as blocks: capitals headings, `- ` bullets, and for forms `Label: value`
 * fields; every other line is a paragraph, and blank lines add space. The text may have been edited
 * by hand, so nothing here requires a particular shape.
 */
function blocksOf(content: string, fields: boolean): Block[] {
  const blocks: Block[] = [];
  let gap = 0;
  for (const raw of content.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    if (line.trim() === '') {
      gap = PARAGRAPH_GAP;
      continue;
    }
    const bullet = BULLET_LINE.exec(line);
    const field = fields ? FIELD_LINE.exec(line) : null;
    if (HEADING.test(line.trim()) && line.length <= 80) {
      blocks.push({
        spans: [{ font: 'bold', text: line.trim() }],
        indent: 0,
        wrapIndent: 0,
        gapBefore: blocks.length === 0 ? 0 : HEADING_GAP,
        heading: true,
        bullet: false,
      });
    } else if (bullet !== null) {
      blocks.push({
        spans: [{ font: 'regular', text: bullet[1] ?? '' }],
        indent: BULLET_INDENT,
        wrapIndent: BULLET_INDENT,
        gapBefore: gap,
        heading: false,
        bullet: true,
      });
    } else if (field !== null) {
      blocks.push({
        spans: [
          { font: 'bold', text: `${field[1] ?? ''}:` },
          { font: 'regular', text: field[2] ?? '' },
        ],
        indent: 0,
        wrapIndent: FIELD_INDENT,
        gapBefore: Math.max(gap, 3),
        heading: false,
        bullet: false,
      });
    } else {
      blocks.push({
        spans: [{ font: 'regular', text: line }],
        indent: 0,
        wrapIndent: 0,
        gapBefore: gap,
        heading: false,
        bullet: false,
      });
    }
    gap = 0;
  }
  return blocks;
}

/** Breaks a word too wide for any line into pieces that fit. */
function splitWord(piece: Piece, width: number, size: number): Piece[] {
  const parts: Piece[] = [];
  let current: number[] = [];
  for (const code of piece.codes) {
    if (current.length > 0 && widthOf([...current, code], piece.font, size) > width) {
      parts.push({ font: piece.font, codes: current });
      current = [];
    }
    current.push(code);
  }
  if (current.length > 0) parts.push({ font: piece.font, codes: current });
  return parts;
}

/** Wraps spans into lines of pieces; a space is carried at the start of every word but a line's first. */
function wrap(spans: readonly Span[], firstWidth: number, restWidth: number, size: number): Piece[][] {
  const words: Piece[] = [];
  for (const span of spans) {
    for (const word of span.text.split(/\s+/)) {
      if (word !== '') words.push({ font: span.font, codes: encodeWinAnsi(word) });
    }
  }
  const lines: Piece[][] = [];
  let line: Piece[] = [];
  let used = 0;
  const limit = () => (lines.length === 0 ? firstWidth : restWidth);
  const flush = () => {
    lines.push(line);
    line = [];
    used = 0;
  };
  for (const word of words) {
    const space = line.length === 0 ? 0 : widthOf([32], word.font, size);
    const width = widthOf(word.codes, word.font, size);
    if (line.length > 0 && used + space + width > limit()) flush();
    const parts = width > limit() ? splitWord(word, limit(), size) : [word];
    parts.forEach((part, index) => {
      if (index > 0) flush();
      const spaced = line.length === 0 ? part.codes : [32, ...part.codes];
      line.push({ font: part.font, codes: spaced });
      used += widthOf(spaced, part.font, size);
    });
  }
  if (line.length > 0 || lines.length === 0) flush();
  return lines;
}

class PageBuilder {
  readonly pages: { texts: PdfTextRun[]; rules: PdfPage['rules'][number][] }[] = [];
  y = TOP;

  constructor() {
    this.newPage();
  }

  newPage(): void {
    this.pages.push({ texts: [], rules: [] });
    this.y = TOP;
  }

  get page() {
    const page = this.pages.at(-1);
    if (page === undefined) throw new Error('no page');
    return page;
  }

  /** Moves down by `height`, starting a new page when it would cross the bottom margin. */
  advance(height: number, keepWith = 0): void {
    if (this.y - height - keepWith < BOTTOM) this.newPage();
    this.y -= height;
  }

  line(pieces: readonly Piece[], x: number, size: number): void {
    let left = x;
    for (const piece of pieces) {
      this.page.texts.push({ x: left, y: this.y, font: piece.font, size, codes: piece.codes });
      left += widthOf(piece.codes, piece.font, size);
    }
  }
}

/** A document as a Letter-sized PDF: its title, its text laid out in Helvetica, page numbers at the foot. */
export function renderDocumentPdf(document: { title: string; content: string; fields: boolean }): Buffer {
  const builder = new PageBuilder();
  for (const titleLine of wrap([{ font: 'bold', text: document.title }], TEXT_WIDTH, TEXT_WIDTH, TITLE_SIZE)) {
    builder.advance(TITLE_SIZE * 1.25);
    builder.line(titleLine, MARGIN_X, TITLE_SIZE);
  }
  builder.advance(8);
  builder.page.rules.push({ x1: MARGIN_X, y1: builder.y, x2: PAGE_WIDTH - MARGIN_X, y2: builder.y, width: 0.75 });
  builder.advance(8);

  for (const block of blocksOf(document.content, document.fields)) {
    const lines = wrap(block.spans, TEXT_WIDTH - block.indent, TEXT_WIDTH - block.wrapIndent, BODY_SIZE);
    builder.advance(block.gapBefore);
    lines.forEach((line, index) => {
      // A heading is never left alone at the foot of a page.
      builder.advance(LEADING, block.heading ? LEADING : 0);
      const x = MARGIN_X + (index === 0 ? block.indent : block.wrapIndent);
      if (block.bullet && index === 0) {
        builder.page.texts.push({ x: x - 10, y: builder.y, font: 'regular', size: BODY_SIZE, codes: [BULLET] });
      }
      builder.line(line, x, BODY_SIZE);
    });
  }

  const count = builder.pages.length;
  const footerTitle = encodeWinAnsi(document.title);
  builder.pages.forEach((page, index) => {
    const number = encodeWinAnsi(`Page ${index + 1} of ${count}`);
    page.texts.push(
      { x: MARGIN_X, y: FOOTER_Y, font: 'regular', size: FOOTER_SIZE, codes: footerTitle, gray: 0.45 },
      {
        x: PAGE_WIDTH - MARGIN_X - widthOf(number, 'regular', FOOTER_SIZE),
        y: FOOTER_Y,
        font: 'regular',
        size: FOOTER_SIZE,
        codes: number,
        gray: 0.45,
      },
    );
  });
  return writePdf(builder.pages, { title: document.title });
}
