import { execFileSync, spawnSync } from 'node:child_process';

/** Whether poppler-utils' pdftotext is here. Locally its tests are skipped without it; CI installs it. */
export function pdftotextInstalled(): boolean {
  let installed = true;
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
  } catch {
    installed = false;
  }
  if (!installed && process.env['CI'] !== undefined && process.env['CI'] !== '') {
    throw new Error('PDF tests may not be skipped in CI: install poppler-utils (pdftotext)');
  }
  return installed;
}

/**
 * The text a real PDF reader (poppler) extracts from `pdf`. Throws when poppler cannot read it or
 * complains while reading it (a damaged cross-reference table, a bad stream), so a PDF that only
 * opens after repair fails the test.
 */
export function pdfText(pdf: Buffer): string {
  const result = spawnSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf });
  const complaints = result.stderr.toString('utf8').trim();
  if (result.status !== 0 || complaints !== '') {
    throw new Error(`pdftotext could not read the PDF cleanly (exit ${result.status}): ${complaints}`);
  }
  return result.stdout.toString('utf8');
}

/** Text with every run of whitespace as one space, to compare across line wrapping. */
export const flattened = (text: string) => text.replace(/\s+/g, ' ').trim();
