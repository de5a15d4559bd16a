/**
 * `eval:asr`: real recorded speech (read sentences, commands, digits) and ACI-Bench dialogues spoken
 * by flite, decoded through the real PocketSphinx streaming path with the stock and the clinical
 * vocabulary side by side (one worker process each, so on a two-core machine they run in parallel
 * and share whatever else the machine is doing), scored by corpus-level word error rate against the
 * spoken-form reference, with the CPU each worker spent. Flite alone once chose a default that is
 * worse on people, so real speech is always measured unless `--sets` leaves it out on purpose.
 */
import { readFile } from 'node:fs/promises';

import { RECOGNIZER_SAMPLE_RATE } from '@chartwright/protocol';
import { decoderArgs, DEFAULT_OPTIONS } from '@chartwright/server/internal/asr/pocketsphinx/config.js';
import { PocketSphinxRecognizer } from '@chartwright/server/internal/asr/pocketsphinx/engine.js';
import { CLINICAL_DIRECTORY, vocabularyFiles } from '@chartwright/server/internal/asr/vocabularies.js';
import { optionValue, UsageError } from '@chartwright/server/internal/cli/usage.js';
import { wordEditDistance } from '@chartwright/server/internal/text/wer.js';

import { processCpuSeconds } from '../shared/process-cpu.js';
import {
  loadRealSpeech,
  POCKETSPHINX_TESTDATA,
  readRecording,
  RealSpeechError,
  type Recording,
  type Subset,
} from '../speech/real-speech.js';
import { scoredWords } from '../speech/spoken-form.js';
import { dialogueAudio, type Voices } from './dialogue-audio.js';
import {
  formatReport,
  poolBySubset,
  type EvalReport,
  type FileScore,
  type RealReport,
  type VocabularyName,
  type VocabularyResult,
} from './report.js';
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

export const SETS = ['flite', 'real'] as const;
export type EvalSet = (typeof SETS)[number];

export const USAGE = `Usage: npm run eval:asr -- [<valid.jsonl>] [--sets flite,real] [--real-speech <dir>] [--dialogues <ids>|all] [--limit <n>] [--voices <clinician>,<patient>] [--clinical <dir>] [--second-pass] [--decoder-args "<args>"] [--json]

Streams real recorded speech (the real-speech development set pooled with Debian's
pocketsphinx-testdata recordings) and dialogues spoken by flite (clinician and patient in different
voices) through the PocketSphinx recognizer with the stock and with the clinical vocabulary at once,
and prints corpus-level word error rate and CPU for each. Measure flite on the valid split: the
clinical vocabulary is built from the train split.

  --sets <sets>         which to run: flite, real or both (default: flite,real; real alone takes a minute or two)
  --real-speech <dir>   the real-speech set (refs.tsv, wav/); without it, Debian's recordings alone
  --dialogues <ids>     comma-separated dialogue ids, or "all" (default: ${DEFAULT_DIALOGUES.join(',')})
  --limit <n>           only the first n of those
  --voices <a>,<b>      flite voices for the clinician and for everyone else (default: ${DEFAULT_VOICES.clinician},${DEFAULT_VOICES.patient})
  --clinical <dir>      clinical vocabulary to measure (default: the shipped one, ${CLINICAL_DIRECTORY})
  --second-pass         decode both with the flat-lexicon second pass on (ASR_SECOND_PASS=true)
  --decoder-args <a>    PocketSphinx arguments appended to both vocabularies', e.g. "-lw 7 -wbeam 1e-50"
  --json                print the report, with per-dialogue and per-recording results, as JSON`;

export interface EvalArguments {
  sets: readonly EvalSet[];
  realSpeechDirectory: string;
  file: string;
  dialogues: readonly string[] | 'all';
  limit: number | null;
  voices: Voices;
  clinicalDirectory: string;
  secondPass: boolean;
  decoderArgs: readonly string[];
  json: boolean;
}

export interface Defaults {
  file: string;
  realSpeechDirectory: string;
}

export function parseArguments(argv: readonly string[], defaults: Defaults): EvalArguments | 'help' {
  const files: string[] = [];
  const args: EvalArguments = {
    sets: SETS,
    realSpeechDirectory: defaults.realSpeechDirectory,
    file: defaults.file,
    dialogues: DEFAULT_DIALOGUES,
    limit: null,
    voices: DEFAULT_VOICES,
    clinicalDirectory: CLINICAL_DIRECTORY,
    secondPass: false,
    decoderArgs: [],
    json: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    const value = (): string => optionValue(argv, index++);
    if (argument === '--help' || argument === '-h') return 'help';
    else if (argument === '--json') args.json = true;
    else if (argument === '--second-pass') args.secondPass = true;
    else if (argument === '--sets') args.sets = parseSets(value());
    else if (argument === '--real-speech') args.realSpeechDirectory = value();
    else if (argument === '--decoder-args') args.decoderArgs = parseDecoderArgs(value());
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
  args.file = files[0] ?? defaults.file;
  return args;
}

/**
 * Flags the service's own configuration always sets (model files, second pass, best path, end of
 * speech): PocketSphinx refuses a flag given twice, so these cannot be tuned from here.
 */
const SERVICE_FLAGS = new Set(flagsOf(decoderArgs({ ...DEFAULT_OPTIONS, vocabulary: null, extraArgs: [] })));

function flagsOf(args: readonly string[]): string[] {
  return args.filter((_, index) => index % 2 === 0);
}

function parseDecoderArgs(text: string): string[] {
  const args = text.split(/\s+/).filter((word) => word !== '');
  if (args.length === 0) throw new UsageError('--decoder-args is empty');
  const flags = flagsOf(args);
  if (args.length % 2 !== 0 || flags.some((flag) => !/^-[a-z]/.test(flag))) {
    throw new UsageError('--decoder-args takes PocketSphinx "-name value" pairs, e.g. "-lw 7 -wbeam 1e-50"');
  }
  const fixed = flags.filter((flag) => SERVICE_FLAGS.has(flag));
  if (fixed.length > 0) {
    throw new UsageError(`--decoder-args cannot set ${fixed.join(', ')}: the service's configuration sets it`);
  }
  return args;
}

/** `args` (`-name value` pairs) with each flag `overrides` names set to its value there, added if new. */
export function withOverrides(args: readonly string[], overrides: readonly string[]): string[] {
  const values = new Map<string, string>();
  for (const list of [args, overrides]) {
    for (let index = 0; index + 1 < list.length; index += 2) values.set(list[index] ?? '', list[index + 1] ?? '');
  }
  return [...values].flat();
}

function parseSets(text: string): EvalSet[] {
  const names = text.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(SETS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new UsageError(`--sets takes ${SETS.join(' and/or ')}, not "${unknown.join(',')}"`);
  return SETS.filter((set) => names.includes(set));
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
  name: VocabularyName;
  recognizer: PocketSphinxRecognizer;
  pid: number;
  /** Wall time for the worker to start and load its first decoder. */
  loadMs: number;
}

async function startContender(
  name: VocabularyName,
  args: Pick<EvalArguments, 'clinicalDirectory' | 'secondPass' | 'decoderArgs'>,
): Promise<Contender> {
  const vocabulary = vocabularyFiles(name, args.clinicalDirectory);
  // A vocabulary's own tuning (the clinical -lw, -beam…) would be given twice, which PocketSphinx
  // refuses, so `--decoder-args` replaces its values there rather than being appended after them.
  const recognizer = new PocketSphinxRecognizer({
    workers: 1,
    secondPass: args.secondPass,
    ...(vocabulary === null
      ? { vocabulary, extraArgs: args.decoderArgs }
      : { vocabulary: { ...vocabulary, args: withOverrides(vocabulary.args, args.decoderArgs) }, extraArgs: [] }),
  });
  const status = await recognizer.status();
  if (!status.available) throw new Error(`${name}: ${status.reason}; install with: ${status.installHint}`);
  const started = performance.now();
  await recognizer.warmUp();
  const loadMs = performance.now() - started;
  const pid = recognizer.workerPids()[0];
  if (pid === undefined || processCpuSeconds(pid) === null)
    throw new Error(`${name}: cannot read the worker's CPU time`);
  return { name, recognizer, pid, loadMs };
}

/** CPU seconds the contender's worker has used so far. */
function cpuSeconds(contender: Contender): number {
  const seconds = processCpuSeconds(contender.pid);
  if (seconds === null) throw new Error(`${contender.name}: its worker process is gone`);
  return seconds;
}

async function decodeWith(contender: Contender, samples: Int16Array): Promise<string[]> {
  const stream = (await contender.recognizer.openStream({ sampleRate: RECOGNIZER_SAMPLE_RATE })) as PacedStream;
  return scoredWords(await transcribe(stream, samples));
}

/** Streams each dialogue through every contender at once, adding up its words, errors and audio. */
async function decodeDialogues(
  contenders: readonly Contender[],
  dialogues: readonly DialogueRecord[],
  voices: Voices,
  output: Pick<Output, 'stderr'>,
): Promise<VocabularyResult[]> {
  const results = contenders.map(({ name, loadMs }): VocabularyResult => ({
    name,
    referenceWords: 0,
    errors: 0,
    audioSeconds: 0,
    cpuSeconds: 0,
    loadMs,
    dialogues: [],
  }));
  const cpuAtStart = contenders.map(cpuSeconds);
  for (const [index, record] of dialogues.entries()) {
    const audio = dialogueAudio(record.dialogue, voices);
    output.stderr(
      `eval:asr: flite ${index + 1}/${dialogues.length} ${record.id}: ${audio.reference.length} words, ` +
        `${(audio.seconds / 60).toFixed(1)} min of speech\n`,
    );
    await Promise.all(
      contenders.map(async (contender, which) => {
        const errors = wordEditDistance(audio.reference, await decodeWith(contender, audio.samples));
        const result = results[which];
        if (result === undefined) return;
        result.referenceWords += audio.reference.length;
        result.errors += errors;
        result.audioSeconds += audio.seconds;
        result.dialogues.push({ id: record.id, referenceWords: audio.reference.length, errors });
      }),
    );
  }
  contenders.forEach((contender, which) => {
    const result = results[which];
    if (result !== undefined) result.cpuSeconds = cpuSeconds(contender) - (cpuAtStart[which] ?? 0);
  });
  return results;
}

/**
 * Streams each recording through every contender at once, one subset after another so each
 * subset's CPU can be read between them, and pools the scores by subset.
 */
async function decodeRecordings(
  contenders: readonly Contender[],
  recordings: readonly Recording[],
  output: Pick<Output, 'stderr'>,
): Promise<RealReport['vocabularies']> {
  const files = contenders.map((): FileScore[] => []);
  const cpu = contenders.map((): Partial<Record<Subset, number>> => ({}));
  let done = 0;
  for (const subset of new Set(recordings.map((recording) => recording.subset))) {
    const cpuAtStart = contenders.map(cpuSeconds);
    for (const recording of recordings.filter((candidate) => candidate.subset === subset)) {
      const samples = await readRecording(recording.file);
      const reference = scoredWords(recording.reference);
      const audioSeconds = samples.length / RECOGNIZER_SAMPLE_RATE;
      done += 1;
      output.stderr(
        `eval:asr: real ${done}/${recordings.length} ${subset}, ${recording.source} ${recording.id}: ` +
          `${reference.length} words, ${audioSeconds.toFixed(1)} s\n`,
      );
      await Promise.all(
        contenders.map(async (contender, which) => {
          const errors = wordEditDistance(reference, await decodeWith(contender, samples));
          files[which]?.push({
            id: recording.id,
            subset,
            source: recording.source,
            referenceWords: reference.length,
            errors,
            audioSeconds,
          });
        }),
      );
    }
    contenders.forEach((contender, which) => {
      const spent = cpu[which];
      if (spent !== undefined) spent[subset] = cpuSeconds(contender) - (cpuAtStart[which] ?? 0);
    });
  }
  return contenders.map(({ name }, which) => ({
    name,
    subsets: poolBySubset(files[which] ?? [], cpu[which] ?? {}),
    files: files[which] ?? [],
  }));
}

export interface Output {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export interface EvalOptions extends Defaults {
  machine: () => string[];
  /** Where Debian's pocketsphinx-testdata is (tests point elsewhere to check its absence). */
  testdataDirectory?: string;
}

export async function runAsrEval(argv: readonly string[], output: Output, options: EvalOptions): Promise<number> {
  let args: EvalArguments;
  let dialogues: DialogueRecord[] = [];
  try {
    const parsed = parseArguments(argv, options);
    if (parsed === 'help') {
      output.stdout(`${USAGE}\n`);
      return 0;
    }
    args = parsed;
    if (args.sets.includes('flite')) dialogues = selectDialogues(await readFile(args.file, 'utf8'), args);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof SyntaxError) && !isMissingFile(error)) throw error;
    output.stderr(`eval:asr: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }
  let report: EvalReport;
  try {
    report = await evaluate(args, dialogues, { ...options, stderr: output.stderr });
  } catch (error) {
    if (!(error instanceof RealSpeechError)) throw error;
    output.stderr(`eval:asr: ${error.message}\n`);
    return 1;
  }
  output.stdout(args.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return 0;
}

async function evaluate(
  args: EvalArguments,
  dialogues: readonly DialogueRecord[],
  options: EvalOptions & Pick<Output, 'stderr'>,
): Promise<EvalReport> {
  // Loaded before the workers start, so missing recordings fail at once.
  const realSpeech = args.sets.includes('real')
    ? await loadRealSpeech(args.realSpeechDirectory, options.testdataDirectory ?? POCKETSPHINX_TESTDATA)
    : null;

  const contenders = await Promise.all([startContender('stock', args), startContender('clinical', args)]);
  let real: RealReport | null = null;
  let fliteResults: VocabularyResult[] | null = null;
  try {
    if (realSpeech !== null) {
      const sources: Record<string, number> = {};
      for (const { source } of realSpeech.recordings) sources[source] = (sources[source] ?? 0) + 1;
      real = {
        directory: args.realSpeechDirectory,
        sources,
        notes: realSpeech.notes,
        vocabularies: await decodeRecordings(contenders, realSpeech.recordings, options),
      };
    }
    if (args.sets.includes('flite')) fliteResults = await decodeDialogues(contenders, dialogues, args.voices, options);
  } finally {
    await Promise.all(contenders.map(({ recognizer }) => recognizer.close()));
  }

  return {
    clinicalDirectory: args.clinicalDirectory,
    secondPass: args.secondPass,
    decoderArgs: [...args.decoderArgs],
    machine: options.machine(),
    date: new Date().toISOString().slice(0, 10),
    flite:
      fliteResults === null
        ? null
        : {
            dataset: args.file,
            dialogues: dialogues.map((record) => record.id),
            voices: args.voices,
            vocabularies: fliteResults,
          },
    real,
  };
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error as NodeJS.ErrnoException).code === 'ENOENT';
}
