/**
 * ARPA text format: what `sphinx_lm_convert` turns into the binary the decoder loads. Only writing
 * is needed by the build; reading exists for tests and for inspecting a model by hand.
 */
import { emptyModel, packKey, setNgram, unpackKey, type BackoffModel } from './backoff-model.js';

export class ArpaFormatError extends Error {
  override readonly name = 'ArpaFormatError';
}

const format = (value: number): string => (Object.is(value, -0) ? 0 : value).toFixed(6);

/** Lines of an ARPA file, n-grams sorted by words so the output is reproducible. */
export function* arpaLines(model: BackoffModel): Generator<string> {
  const order = model.tables.length;
  yield '\\data\\';
  for (let n = 1; n <= order; n++) yield `ngram ${n}=${model.tables[n - 1]?.keys.length ?? 0}`;
  for (let n = 1; n <= order; n++) {
    const table = model.tables[n - 1];
    if (table === undefined) continue;
    yield '';
    yield `\\${n}-grams:`;
    const entries = table.keys.map((key, row) => ({
      text: unpackKey(key, n)
        .map((id) => model.words[id] ?? '')
        .join(' '),
      row,
    }));
    entries.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    for (const { text, row } of entries) {
      const logProb = format(table.logProb[row] ?? 0);
      yield n < order ? `${logProb}\t${text}\t${format(table.backoff[row] ?? 0)}` : `${logProb}\t${text}`;
    }
  }
  yield '';
  yield '\\end\\';
  yield '';
}

export function writeArpa(model: BackoffModel): string {
  return [...arpaLines(model)].join('\n');
}

export function readArpa(text: string): BackoffModel {
  const lines = text.split(/\r?\n/);
  const counts: number[] = [];
  let index = lines.indexOf('\\data\\');
  if (index < 0) throw new ArpaFormatError('no \\data\\ section');
  for (index++; index < lines.length; index++) {
    const match = /^ngram (\d+)=(\d+)$/.exec(lines[index]?.trim() ?? '');
    if (match === null) break;
    counts[Number(match[1]) - 1] = Number(match[2]);
  }
  const sections = new Map<number, string[][]>();
  let current: string[][] | undefined;
  for (; index < lines.length; index++) {
    const line = lines[index]?.trim() ?? '';
    const header = /^\\(\d+)-grams:$/.exec(line);
    if (header !== null) {
      current = [];
      sections.set(Number(header[1]), current);
    } else if (line === '\\end\\') break;
    else if (line !== '' && current !== undefined) current.push(line.split(/\s+/));
  }
  const unigrams = sections.get(1) ?? [];
  const model = emptyModel(
    unigrams.map((fields) => fields[1] ?? ''),
    counts.length,
  );
  for (let n = 1; n <= counts.length; n++) {
    const table = model.tables[n - 1];
    const rows = sections.get(n) ?? [];
    if (table === undefined || rows.length !== counts[n - 1]) {
      throw new ArpaFormatError(`${n}-grams: the header says ${counts[n - 1]}, the section has ${rows.length}`);
    }
    for (const fields of rows) {
      const ids = fields.slice(1, n + 1).map((word) => {
        const id = model.wordIds.get(word);
        if (id === undefined) throw new ArpaFormatError(`${n}-gram uses "${word}", which is not a unigram`);
        return id;
      });
      setNgram(table, packKey(ids), Number(fields[0]), Number(fields[n + 1] ?? 0));
    }
  }
  return model;
}
