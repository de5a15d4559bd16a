import { deflateSync } from 'node:zlib';

/** The two faces a page uses: Helvetica and Helvetica-Bold, standard fonts every reader has. */
export type PdfFont = 'regular' | 'bold';

/** A run of text in WinAnsi codes, with its baseline's left end in points from the page's bottom left. */
export interface PdfTextRun {
  x: number;
  y: number;
  font: PdfFont;
  size: number;
  codes: readonly number[];
  /** 0 black … 1 white. */
  gray?: number;
}

export interface PdfRule {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width: number;
}

export interface PdfPage {
  texts: readonly PdfTextRun[];
  rules: readonly PdfRule[];
}

export const PAGE_WIDTH = 612;
export const PAGE_HEIGHT = 792;

const FONT_NAMES: Readonly<Record<PdfFont, string>> = { regular: 'F1', bold: 'F2' };

/** A PDF literal string of WinAnsi codes, printable ASCII as is, the rest as octal escapes. */
function literal(codes: readonly number[]): string {
  let out = '(';
  for (const code of codes) {
    if (code === 0x28 || code === 0x29 || code === 0x5c) out += `\\${String.fromCharCode(code)}`;
    else if (code >= 32 && code <= 126) out += String.fromCharCode(code);
    else out += `\\${code.toString(8).padStart(3, '0')}`;
  }
  return `${out})`;
}

/** A text string in UTF-16BE with its byte-order mark, as PDF metadata takes any Unicode text. */
function unicodeString(text: string): string {
  const bytes = Buffer.from(text, 'utf16le').swap16();
  return `<FEFF${bytes.toString('hex').toUpperCase()}>`;
}

const number = (value: number) => String(Math.round(value * 100) / 100);

function contentStream(page: PdfPage): string {
  const operations: string[] = [];
  for (const rule of page.rules) {
    operations.push(
      `${number(rule.width)} w ${number(rule.x1)} ${number(rule.y1)} m ${number(rule.x2)} ${number(rule.y2)} l S`,
    );
  }
  for (const run of page.texts) {
    operations.push(
      `BT ${number(run.gray ?? 0)} g /${FONT_NAMES[run.font]} ${number(run.size)} Tf 1 0 0 1 ${number(run.x)} ${number(run.y)} Tm ${literal(run.codes)} Tj ET`,
    );
  }
  return operations.join('\n');
}

/**
 * A complete PDF 1.4 file: catalog, page tree, the two fonts, document info and one compressed
 * content stream per page, with an exact cross-reference table so readers need no repair. Nothing
 * in it depends on the time, so the same pages always give the same bytes.
 */
export function writePdf(pages: readonly PdfPage[], info: { title: string }): Buffer {
  const objects: (string | Buffer)[] = [];
  const reserve = () => objects.push('') - 1;
  const catalog = reserve();
  const pageTree = reserve();
  const regular = reserve();
  const bold = reserve();
  const metadata = reserve();
  const ref = (index: number) => `${index + 1} 0 R`;

  objects[regular] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[bold] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[metadata] = `<< /Title ${unicodeString(info.title)} /Producer (Chartwright) >>`;
  const kids: string[] = [];
  for (const page of pages) {
    const stream = deflateSync(Buffer.from(contentStream(page), 'latin1'));
    const content =
      objects.push(
        Buffer.concat([
          Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
          stream,
          Buffer.from('\nendstream', 'latin1'),
        ]),
      ) - 1;
    const pageObject =
      objects.push(
        `<< /Type /Page /Parent ${ref(pageTree)} /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
          `/Resources << /Font << /F1 ${ref(regular)} /F2 ${ref(bold)} >> >> /Contents ${ref(content)} >>`,
      ) - 1;
    kids.push(ref(pageObject));
  }
  objects[pageTree] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${kids.length} >>`;
  objects[catalog] = `<< /Type /Catalog /Pages ${ref(pageTree)} >>`;

  // The binary comment line tells transfer tools the file is binary.
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    chunks.push(chunk);
    length += chunk.length;
  });
  // Every cross-reference entry is exactly 20 bytes, its end of line included.
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f \n' + offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join(''),
  ].join('\n');
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root ${ref(catalog)} /Info ${ref(metadata)} >>\nstartxref\n${length}\n%%EOF\n`;
  chunks.push(Buffer.from(`${xref}${trailer}`, 'latin1'));
  return Buffer.concat(chunks);
}
