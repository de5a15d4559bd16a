/**
 * `eval:notes` argument handling and output, with the engines and parser passed in so tests can
 * run the whole command with a stand-in engine; `cli.ts` wires the real ones.
 */
import { readFile } from 'node:fs/promises';

import { NOTE_STYLES, type NoteStyle, type Template } from '@chartwright/protocol';
import { optionValue, UsageError } from '@chartwright/server/internal/cli/usage.js';
import type { NoteGenerator } from '@chartwright/server/internal/notes/generator.js';
import type { Conversation } from '@chartwright/server/internal/text/conversation.js';

import { DatasetError, evaluate, parseJsonl } from './evaluate.js';
import { formatReport } from './report.js';

const isNoteStyle = (value: string): value is NoteStyle => (NOTE_STYLES as readonly string[]).includes(value);

export const USAGE = `Usage: npm run eval:notes -- <file.jsonl> [--template <id>] [--style <style>] [--engine <name>] [--json] [--show-unsupported]

Generates a note for each {id, dialogue, note} record, and prints ROUGE-1/2/L/Lsum F1 (ACI-Bench's
definitions), faithfulness and time per note for the engine and for the copy-the-dialogue baseline,
plus ROUGE per section group against the reference notes' own sections.

  --template <id>       template to generate with (default: history_and_physical)
  --style <style>       note style: detailed (default) or concise
  --engine <name>       note engine (default: extractive)
  --json                print the full report (with per-note results) as JSON
  --show-unsupported    list the engine sentences the faithfulness check did not find support for`;

export const DEFAULT_TEMPLATE = 'history_and_physical';
export const DEFAULT_ENGINE = 'extractive';

export interface EvalArguments {
  file: string;
  template: string;
  style: NoteStyle;
  engine: string;
  json: boolean;
  showUnsupported: boolean;
}

export function parseArguments(argv: readonly string[]): EvalArguments | 'help' {
  const files: string[] = [];
  let template = DEFAULT_TEMPLATE;
  let style = 'detailed';
  let engine = DEFAULT_ENGINE;
  let json = false;
  let showUnsupported = false;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    const value = (): string => optionValue(argv, index++);
    if (argument === '--help' || argument === '-h') return 'help';
    else if (argument === '--json') json = true;
    else if (argument === '--show-unsupported') showUnsupported = true;
    else if (argument === '--template') template = value();
    else if (argument.startsWith('--template=')) template = argument.slice('--template='.length);
    else if (argument === '--style') style = value();
    else if (argument.startsWith('--style=')) style = argument.slice('--style='.length);
    else if (argument === '--engine') engine = value();
    else if (argument.startsWith('--engine=')) engine = argument.slice('--engine='.length);
    else if (argument.startsWith('-') && argument !== '-') throw new UsageError(`unknown option ${argument}`);
    else files.push(argument);
  }
  const [file, ...more] = files;
  if (file === undefined) throw new UsageError('give one JSONL file');
  if (more.length > 0) throw new UsageError('give only one JSONL file');
  if (!isNoteStyle(style)) throw new UsageError(`unknown --style "${style}"; known: ${NOTE_STYLES.join(', ')}`);
  return { file, template, style, engine, json, showUnsupported };
}

export interface EvalDependencies {
  engines: Readonly<Record<string, NoteGenerator>>;
  templates: readonly Template[];
  parse: (text: string) => Conversation;
  machine: () => string[];
  /** Reads the data set; `-` is standard input. */
  read?: (file: string) => Promise<string>;
  now?: () => number;
  today?: () => string;
}

export interface Output {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

async function readInput(file: string): Promise<string> {
  if (file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Runs the command. Exit status: 0 when every note was generated, 1 when the engine failed on
 * some note (the report is still printed, those notes scoring 0), 2 for a usage or input error.
 */
export async function runEval(
  argv: readonly string[],
  output: Output,
  dependencies: EvalDependencies,
): Promise<number> {
  let args: EvalArguments;
  try {
    const parsed = parseArguments(argv);
    if (parsed === 'help') {
      output.stdout(`${USAGE}\n`);
      return 0;
    }
    args = parsed;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.stderr(`eval:notes: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }

  const template = dependencies.templates.find((candidate) => candidate.id === args.template);
  if (template === undefined) {
    const known = dependencies.templates.map((candidate) => candidate.id).join(', ');
    output.stderr(`eval:notes: unknown --template "${args.template}"; known: ${known}\n`);
    return 2;
  }
  const generator = dependencies.engines[args.engine];
  if (generator === undefined) {
    const known = Object.keys(dependencies.engines).join(', ');
    output.stderr(`eval:notes: unknown --engine "${args.engine}"; known: ${known}\n`);
    return 2;
  }

  let records;
  try {
    records = parseJsonl(await (dependencies.read ?? readInput)(args.file), args.file);
  } catch (error) {
    if (error instanceof DatasetError) {
      output.stderr(`eval:notes: ${error.message}\n`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    output.stderr(`eval:notes: cannot read ${args.file}: ${message}\n`);
    return 2;
  }

  const report = await evaluate(records, {
    generator,
    parse: dependencies.parse,
    template,
    style: args.style,
    ...(dependencies.now === undefined ? {} : { now: dependencies.now }),
  });
  const meta = {
    dataset: args.file,
    style: args.style,
    machine: dependencies.machine(),
    date: (dependencies.today ?? (() => new Date().toISOString().slice(0, 10)))(),
  };
  if (args.json) output.stdout(`${JSON.stringify({ ...meta, ...report }, null, 2)}\n`);
  else output.stdout(formatReport(report, meta, { unsupported: args.showUnsupported }));
  return report.systems.engine.failures > 0 ? 1 : 0;
}
