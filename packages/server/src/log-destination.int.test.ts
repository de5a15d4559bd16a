import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

/** The built module, as the service runs it: a process's exit is only seen from outside it. */
const MODULE = new URL('../dist/log-destination.js', import.meta.url).href;

/** Runs a script that logs `lines` lines through the batched stdout and then ends as `ending` says. */
async function stdoutOf(lines: number, ending: string): Promise<string> {
  const script = [
    `const { BatchedLogDestination } = await import(${JSON.stringify(MODULE)});`,
    'const out = new BatchedLogDestination(1, 60_000);',
    `for (let n = 0; n < ${lines}; n += 1) out.write(JSON.stringify({ n, pad: 'x'.repeat(200) }) + '\\n');`,
    ending,
  ].join('\n');
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

const numbersIn = (stdout: string): number[] =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { n: number }).n);

describe('the batched log destination at exit', () => {
  const all = (count: number) => Array.from({ length: count }, (_, n) => n);

  it('writes the lines still gathered when the process calls exit', async () => {
    expect(numbersIn(await stdoutOf(3, 'process.exit(0);'))).toEqual(all(3));
  });

  it('writes them when the process ends on its own, the batch timer not holding it open', async () => {
    expect(numbersIn(await stdoutOf(5, ''))).toEqual(all(5));
  });

  it('keeps every line, in order, across many batches and an exit', async () => {
    expect(numbersIn(await stdoutOf(5000, 'process.exit(0);'))).toEqual(all(5000));
  });
});
