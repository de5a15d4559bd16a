/**
 * `eval:asr`: ACI-Bench dialogues spoken by flite, decoded through the real PocketSphinx streaming
 * path with the stock and the clinical vocabulary side by side (one worker process each, so on a
 * two-core machine they run in parallel and share whatever else the machine is doing), scored by
 * word error rate against the spoken-form reference, with the CPU each worker spent.
 */
import { readFile } from 'node:fs/promises';

import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';
import { PocketSphinxRecognizer } from '@chartwright/server/internal/asr/pocketsphinx/engine.js';
import { CLINICAL_DIRECTORY, vocabularyFiles } from '@chartwright/server/internal/asr/vocabularies.js';
import { optionValue, UsageError } from '@chartwright/server/internal/cli/usage.js';
import { wordEditDistance } from '@chartwright/server/internal/text/wer.js';

import { processCpuSeconds } from '../shared/process-cpu.js';
import { scoredWords } from '../speech/spoken-form.js';
import { dialogueAudio, type Voices } from './dialogue-audio.js';
import { formatReport, type EvalReport, type VocabularyResult } from './report.js';
import { transcribe, type PacedStream } from './transcribe.js';

/**
 * Two dialogues from each ACI-Bench subset (virtassist, virtscribe, aci), the shorter ones: 4,781
 * scored words, about 29 minutes of speech; a run takes 7 to 10 minutes on two busy cores.
 */
export const DEFAULT_DIALOGUES = ['D2N069', 'D2N072', 'D2N073', 'D2N075', 'D2N083', 'D2N085'];
/**
 * The two flite voices the en-us acoustic model recognises best (of kal16, awb, rms, slt: measured
 * on one dialogue, slt's errors were nearly twice rms's); `--voices slt,rms` measures the harder case.
 */
export const DEFAULT_VOICES: Voices = { clinician: 'rms', patient: 'awb' };

export const USAGE = `Usage: npm run eval:asr -- [<valid.jsonl>] [--dialogues <ids>|all] [--limit <n>] [--voices <clinician>,<patient>] [--clinical <dir>] [--second-pass] [--json]

Speaks each dialogue with flite (clinician and patient in different voices), streams it through the
PocketSphinx recognizer with the stock and with the clinical vocabulary at once, and prints word
error rate and CPU (seconds and real-time factor) for each. Measure on the valid split: the clinical
vocabulary is built from the train split.

  --dialogues <ids>     comma-separated dialogue ids, or "all" (default: ${DEFAULT_DIALOGUES.join(',')})
  --limit <n>           only the first n of those
  --voices <a>,<b>      flite voices for the clinician and for everyone else (default: ${DEFAULT_VOICES.clinician},${DEFAULT_VOICES.patient})
  --clinical <dir>      clinical vocabulary to measure (default: the shipped one, ${CLINICAL_DIRECTORY})
  --second-pass         decode both with the flat-lexicon second pass on (ASR_SECOND_PASS=true)
  --json                print the report, with per-dialogue results, as JSON`;

export interface EvalArguments {
  file: string;
  dialogues: readonly string[] | 'all';
  limit: number | null;
  voices: Voices;
  clinicalDirectory: string;
  secondPass: boolean;
  json: boolean;
}

export function parseArguments(argv: readonly string[], defaultFile: string): EvalArguments | 'help' {
  const files: string[] = [];
  const args: EvalArguments = {
    file: defaultFile,
    dialogues: DEFAULT_DIALOGUES,
    limit: null,
    voices: DEFAULT_VOICES,
    clinicalDirectory: CLINICAL_DIRECTORY,
    secondPass: false,
    json: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    const value = (): string => optionValue(argv, index++);
    if (argument === '--help' || argument === '-h') return 'help';
    else if (argument === '--json') args.json = true;
    else if (argument === '--second-pass') args.secondPass = true;
    else if (argument === '--dialogues') {
      const ids = value();
      args.dialogues =
        ids === 'all'
          ? 'all'
          : ids
              .split(',')
              .map((id) => id.trim())
              .filter((id) => id !== '');
      if (args.dialogues !== 'all' && args.dialogues.length === 0) throw new UsageError('--dialogues lists no id');
    } else if (argument === '--limit') {
      const text = value();
      if (!/^[1-9]\d*$/.test(text)) throw new UsageError('--limit must be a whole number from 1');
      args.limit = Number(text);
    } else if (argument === '--voices') {
      const [clinician, patient, ...rest] = value().split(',');
      if (clinician === undefined || patient === undefined || rest.length > 0 || clinician === '' || patient === '') {
        throw new UsageError('--voices takes two flite voices, clinician first: e.g. slt,rms');
      }
      args.voices = { clinician, patient };
    } else if (argument === '--clinical') args.clinicalDirectory = value();
    else if (argument.startsWith('-')) throw new UsageError(`unknown option ${argument}`);
    else files.push(argument);
  }
  if (files.length > 1) throw new UsageError('give only one JSONL file');
  args.file = files[0] ?? defaultFile;
  return args;
}

interface DialogueRecord {
  id: string;
  dialogue: string;
}

export function selectDialogues(text: string, args: Pick<EvalArguments, 'dialogues' | 'limit'>): DialogueRecord[] {
  const records = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const record = JSON.parse(line) as Partial<DialogueRecord>;
      if (typeof record.dialogue !== 'string') throw new UsageError(`line ${index + 1}: no "dialogue"`);
      return { id: typeof record.id === 'string' ? record.id : `line ${index + 1}`, dialogue: record.dialogue };
    });
  let chosen = records;
  if (args.dialogues !== 'all') {
    chosen = args.dialogues.map((id) => {
      const record = records.find((candidate) => candidate.id === id);
      if (record === undefined) throw new UsageError(`no dialogue "${id}" in the file`);
      return record;
    });
  }
  return args.limit === null ? chosen : chosen.slice(0, args.limit);
}

interface Contender {
  result: VocabularyResult;
  recognizer: PocketSphinxRecognizer;
  pid: number;
  cpuAtStart: number;
}

async function startContender(
  name: VocabularyResult['name'],
  args: Pick<EvalArguments, 'clinicalDirectory' | 'secondPass'>,
): Promise<Contender> {
  const recognizer = new PocketSphinxRecognizer({
    workers: 1,
    vocabulary: vocabularyFiles(name, args.clinicalDirectory),
    secondPass: args.secondPass,
  });
  const status = await recognizer.status();
  if (!status.available) throw new Error(`${name}: ${status.reason}; install with: ${status.installHint}`);
  const started = performance.now();
  await recognizer.warmUp();
  const loadMs = performance.now() - started;
  const pid = recognizer.workerPids()[0];
  const cpuAtStart = pid === undefined ? null : processCpuSeconds(pid);
  if (pid === undefined || cpuAtStart === null) throw new Error(`${name}: cannot read the worker's CPU time`);
  return {
    recognizer,
    pid,
    cpuAtStart,
    result: { name, referenceWords: 0, errors: 0, audioSeconds: 0, cpuSeconds: 0, loadMs, dialogues: [] },
  };
}

/** Streams each dialogue through every contender at once, adding up its words, errors and audio. */
async function decodeDialogues(
  contenders: readonly Contender[],
  dialogues: readonly DialogueRecord[],
  voices: Voices,
  output: Output,
): Promise<void> {
  for (const [index, record] of dialogues.entries()) {
    const audio = dialogueAudio(record.dialogue, voices);
    output.stderr(
      `eval:asr: ${index + 1}/${dialogues.length} ${record.id}: ${audio.reference.length} words, ` +
        `${(audio.seconds / 60).toFixed(1)} min of speech\n`,
    );
    await Promise.all(
      contenders.map(async ({ recognizer, result }) => {
        const stream = (await recognizer.openStream({ sampleRate: RECOGNIZER_SAMPLE_RATE })) as PacedStream;
        const hypothesis = await transcribe(stream, audio.samples);
        const errors = wordEditDistance(audio.reference, scoredWords(hypothesis));
        result.referenceWords += audio.reference.length;
        result.errors += errors;
        result.audioSeconds += audio.seconds;
        result.dialogues.push({ id: record.id, referenceWords: audio.reference.length, errors });
      }),
    );
  }
}

export interface Output {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export async function runAsrEval(
  argv: readonly string[],
  output: Output,
  options: { defaultFile: string; machine: () => string[] },
): Promise<number> {
  let args: EvalArguments;
  let dialogues: DialogueRecord[];
  try {
    const parsed = parseArguments(argv, options.defaultFile);
    if (parsed === 'help') {
      output.stdout(`${USAGE}\n`);
      return 0;
    }
    args = parsed;
    dialogues = selectDialogues(await readFile(args.file, 'utf8'), args);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof SyntaxError) && !isMissingFile(error)) throw error;
    output.stderr(`eval:asr: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }

  const contenders = await Promise.all([startContender('stock', args), startContender('clinical', args)]);
  try {
    await decodeDialogues(contenders, dialogues, args.voices, output);
    for (const contender of contenders) {
      const cpu = processCpuSeconds(contender.pid);
      if (cpu === null) throw new Error(`${contender.result.name}: its worker process is gone`);
      contender.result.cpuSeconds = cpu - contender.cpuAtStart;
    }
  } finally {
    await Promise.all(contenders.map(({ recognizer }) => recognizer.close()));
  }

  const report: EvalReport = {
    dataset: args.file,
    dialogues: dialogues.map((record) => record.id),
    voices: args.voices,
    clinicalDirectory: args.clinicalDirectory,
    secondPass: args.secondPass,
    machine: options.machine(),
    date: new Date().toISOString().slice(0, 10),
    vocabularies: contenders.map(({ result }) => result),
  };
  output.stdout(args.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return 0;
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error as NodeJS.ErrnoException).code === 'ENOENT';
}
