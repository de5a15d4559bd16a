/**
 * `eval:e2e`: one measure from audio to note. Each ACI-Bench visit is spoken by two flite voices
 * (eval-asr/dialogue-audio.ts), heard as one microphone hears it (mono) and as a two-channel
 * recording (one voice per channel), streamed through the realtime WebSocket of the service in its
 * default configuration, and the stored transcript sent to `POST /api/v1/notes` as segments. The
 * same engine writes a note from the typed (gold) transcript. Reported per layout: word error rate,
 * speaker attribution, each note's ROUGE against the clinician's note with the register audit, and
 * the statements the two notes negate differently (polarity-agreement.ts); the figure that matters
 * is the audio note's ROUGE-1 as a share of the gold note's, with no statement turned around.
 */
import { readFile } from 'node:fs/promises';

import { RECOGNIZER_SAMPLE_RATE, type Note, type RealtimeSessionResource } from '@chartwright/protocol';
import { optionValue, UsageError } from '@chartwright/server/internal/cli/usage.js';
import type { GeneratedNote } from '@chartwright/server/internal/notes/generator.js';
import { wordEditDistance } from '@chartwright/server/internal/text/wer.js';

import { dialogueAudio, type DialogueAudio, type SpokenTurn, type Voices } from '../eval-asr/dialogue-audio.js';
import { DEFAULT_VOICES } from '../eval-asr/run.js';
import { auditNote, countWords, summarizeAudits, type AuditSummary, type NoteAudit } from '../eval-notes/audit.js';
import { parseJsonl, type EvalRecord } from '../eval-notes/evaluate.js';
import { rouge1, rougeLsum } from '../eval-notes/rouge.js';
import { table } from '../shared/table.js';
import { scoredWords } from '../speech/spoken-form.js';
import { scoreAttribution } from './attribution.js';
import { polarityDisagreements, type PolarityDisagreement } from './polarity-agreement.js';
import { startService, type EvaluatedService } from './service.js';
import { serviceRequest, streamVisit } from './stream-visit.js';

export const LAYOUTS = ['mono', 'stereo'] as const;

/**
 * Visits whose source labels the doctor `[patient]` and the patient `[doctor]` (read their first
 * turns: the `[patient]` greets, asks and examines). Their audio is spoken as labelled; speakers are
 * scored by who the person is, so the voice of the `[patient]` turns is the clinician.
 */
export const LABELS_SWAPPED: ReadonlySet<string> = new Set([
  'D2N034',
  'D2N038',
  'D2N056',
  'D2N057',
  'D2N059',
  'D2N082',
]);

/** The turns with the roles of the people who spoke them. */
export function trueTurns(id: string, turns: readonly SpokenTurn[]): SpokenTurn[] {
  if (!LABELS_SWAPPED.has(id)) return [...turns];
  return turns.map((turn) => ({ ...turn, speaker: turn.speaker === 'clinician' ? 'patient' : 'clinician' }));
}
export type Layout = (typeof LAYOUTS)[number];

export const DEFAULT_SPEED = 4;
export const DEFAULT_TEMPLATE = 'history_and_physical';

export const USAGE = `Usage: npm run eval:e2e -- [<valid.jsonl>] [--dialogues <ids>] [--limit <n>] [--layouts mono,stereo] [--voices <clinician>,<patient>] [--speed <x>] [--json]

Speaks ACI-Bench visits with two flite voices, streams them through the realtime WebSocket of the
service in its default configuration (one microphone: both voices mixed to one channel; stereo:
one voice per channel), writes a note from each stored transcript and one from the typed
transcript with the same engine, and reports WER, speaker attribution, and the notes' ROUGE and
register against the clinician's note.

  --dialogues <ids>     comma-separated dialogue ids (default: every visit in the file)
  --limit <n>           only the first n of those
  --layouts <list>      mono and/or stereo (default: mono,stereo)
  --voices <a>,<b>      flite voices for the clinician and the patient (default: ${DEFAULT_VOICES.clinician},${DEFAULT_VOICES.patient})
  --speed <x>           how many times faster than real time the audio is sent (default: ${DEFAULT_SPEED})
  --json                print the report, with per-visit results, as JSON`;

export interface E2eArguments {
  file: string;
  dialogues: readonly string[] | null;
  limit: number | null;
  layouts: readonly Layout[];
  voices: Voices;
  speed: number;
  json: boolean;
}

export function parseArguments(argv: readonly string[], defaultFile: string): E2eArguments | 'help' {
  const args: E2eArguments = {
    file: defaultFile,
    dialogues: null,
    limit: null,
    layouts: LAYOUTS,
    voices: DEFAULT_VOICES,
    speed: DEFAULT_SPEED,
    json: false,
  };
  const files: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    const value = (): string => optionValue(argv, index++);
    if (argument === '--help' || argument === '-h') return 'help';
    else if (argument === '--json') args.json = true;
    else if (argument === '--dialogues') args.dialogues = value().split(',').filter(Boolean);
    else if (argument === '--limit') {
      const text = value();
      if (!/^[1-9]\d*$/.test(text)) throw new UsageError('--limit must be a whole number from 1');
      args.limit = Number(text);
    } else if (argument === '--layouts') {
      const layouts = value().split(',');
      const unknown = layouts.filter((layout) => !(LAYOUTS as readonly string[]).includes(layout));
      if (unknown.length > 0 || layouts.length === 0) throw new UsageError(`--layouts takes mono and/or stereo`);
      args.layouts = layouts as Layout[];
    } else if (argument === '--voices') {
      const [clinician, patient, ...rest] = value().split(',');
      if (clinician === undefined || patient === undefined || rest.length > 0 || clinician === '' || patient === '')
        throw new UsageError('--voices takes two flite voices, clinician first: e.g. rms,slt');
      args.voices = { clinician, patient };
    } else if (argument === '--speed') {
      const speed = Number(value());
      if (!(speed >= 0.5 && speed <= 20)) throw new UsageError('--speed must be a number from 0.5 to 20');
      args.speed = speed;
    } else if (argument.startsWith('-')) throw new UsageError(`unknown option ${argument}`);
    else files.push(argument);
  }
  if (files.length > 1) throw new UsageError('give only one JSONL file');
  if (files[0] !== undefined) args.file = files[0];
  return args;
}

/** Both voices on one channel as they were spoken, or each voice on its own channel (clinician left). */
export function layoutAudio(audio: DialogueAudio, layout: Layout): { samples: Int16Array; channels: 1 | 2 } {
  if (layout === 'mono') return { samples: audio.samples, channels: 1 };
  const stereo = new Int16Array(audio.samples.length * 2);
  const toSample = (ms: number): number => Math.round((ms * RECOGNIZER_SAMPLE_RATE) / 1000);
  // The room is heard on both channels; each voice only on its own.
  for (let i = 0; i < audio.samples.length; i++) stereo[2 * i] = stereo[2 * i + 1] = (audio.samples[i] ?? 0) >> 6;
  for (const turn of audio.turns) {
    const channel = turn.speaker === 'clinician' ? 0 : 1;
    const other = 1 - channel;
    for (let i = toSample(turn.startMs); i < Math.min(audio.samples.length, toSample(turn.endMs)); i++) {
      stereo[2 * i + channel] = audio.samples[i] ?? 0;
      stereo[2 * i + other] = 0;
    }
  }
  return { samples: stereo, channels: 2 };
}

export interface VisitResult {
  id: string;
  layout: Layout;
  audioSeconds: number;
  /** How fast the audio went out in the end (slower than asked when the service refused the pace). */
  speed: number;
  referenceWords: number;
  wordErrors: number;
  attributedWords: number;
  correctlyAttributed: number;
  rolesRight: boolean;
  audioNote: { rouge1: number; rougeLsum: number; audit: NoteAudit };
  goldNote: { rouge1: number; rougeLsum: number; audit: NoteAudit };
  /** Statements the note from audio negates where the gold transcript's note does not, or the reverse. */
  polarityDisagreements: PolarityDisagreement[];
}

export interface LayoutSummary {
  layout: Layout;
  visits: number;
  wer: number;
  attribution: number;
  rolesRightVisits: number;
  audioRouge1: number;
  goldRouge1: number;
  /** audioRouge1 / goldRouge1: the share of the typed transcript's note quality that survives the audio. */
  rouge1Share: number;
  audioRougeLsum: number;
  goldRougeLsum: number;
  audioAudit: AuditSummary;
  goldAudit: AuditSummary;
  /** Over all visits: statements whose negation differs between the two notes. */
  polarityDisagreements: number;
}

export interface E2eReport {
  recognizer: string;
  voices: Voices;
  speed: number;
  layouts: LayoutSummary[];
  visits: VisitResult[];
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((total, value) => total + value, 0) / values.length;

/** The REST note in the shape the register audit reads (the same sections and sentences). */
const asGenerated = (note: Note): GeneratedNote => note as unknown as GeneratedNote;

const noteSentences = (note: Note): string[] =>
  note.sections.flatMap((section) => section.sentences.map((sentence) => sentence.text));

function segmentsForNote(stored: RealtimeSessionResource) {
  return stored.segments.map(({ text, startMs, endMs, channel, speaker, words }) => ({
    text,
    startMs,
    endMs,
    channel,
    speaker,
    ...(words === undefined ? {} : { words }),
  }));
}

async function evaluateVisit(
  service: EvaluatedService,
  record: EvalRecord,
  audio: DialogueAudio,
  layout: Layout,
  speed: number,
  goldNote: Note,
): Promise<VisitResult> {
  const { samples, channels } = layoutAudio(audio, layout);
  let sentAt = speed;
  let streamed = await streamVisit(service.origin, service.apiKey, samples, channels, sentAt);
  // A busy machine decodes slower than the audio is sent: the service refuses the stream as
  // overloaded (as it would a client that ran ahead), and the visit is streamed again, slower.
  while (streamed.errors.includes('recognizer_overloaded') && sentAt > 1) {
    sentAt = Math.max(1, sentAt / 2);
    streamed = await streamVisit(service.origin, service.apiKey, samples, channels, sentAt);
  }
  if (streamed.errors.length > 0 || streamed.stored.segments.length === 0) {
    throw new Error(
      `${record.id} ${layout}: the realtime session ${streamed.errors.length > 0 ? `failed (${streamed.errors.join(', ')})` : 'transcribed nothing'} at ${sentAt}× real time`,
    );
  }
  const hypothesis = scoredWords(streamed.stored.segments.map((segment) => segment.text).join(' '));
  const attribution = scoreAttribution(streamed.stored.segments, trueTurns(record.id, audio.turns));
  const audioNote = await serviceRequest<Note>(service.origin, service.apiKey, 'POST', '/api/v1/notes', {
    template_id: DEFAULT_TEMPLATE,
    segments: segmentsForNote(streamed.stored),
  });
  return {
    id: record.id,
    layout,
    audioSeconds: audio.seconds,
    speed: sentAt,
    referenceWords: audio.reference.length,
    wordErrors: wordEditDistance(audio.reference, hypothesis),
    attributedWords: attribution.words,
    correctlyAttributed: attribution.correct,
    rolesRight: attribution.rolesRight,
    audioNote: {
      rouge1: rouge1(record.note, audioNote.note).f1,
      rougeLsum: rougeLsum(record.note, audioNote.note).f1,
      audit: auditNote(asGenerated(audioNote)),
    },
    goldNote: {
      rouge1: rouge1(record.note, goldNote.note).f1,
      rougeLsum: rougeLsum(record.note, goldNote.note).f1,
      audit: auditNote(asGenerated(goldNote)),
    },
    polarityDisagreements: polarityDisagreements(noteSentences(audioNote), noteSentences(goldNote)),
  };
}

export function summarize(
  layout: Layout,
  visits: readonly VisitResult[],
  referenceNoteWords: readonly number[],
): LayoutSummary {
  const sum = (pick: (visit: VisitResult) => number): number => visits.reduce((total, visit) => total + pick(visit), 0);
  const audioRouge1 = mean(visits.map((visit) => visit.audioNote.rouge1));
  const goldRouge1 = mean(visits.map((visit) => visit.goldNote.rouge1));
  return {
    layout,
    visits: visits.length,
    wer:
      sum((visit) => visit.wordErrors) /
      Math.max(
        1,
        sum((visit) => visit.referenceWords),
      ),
    attribution:
      sum((visit) => visit.correctlyAttributed) /
      Math.max(
        1,
        sum((visit) => visit.attributedWords),
      ),
    rolesRightVisits: visits.filter((visit) => visit.rolesRight).length,
    audioRouge1,
    goldRouge1,
    rouge1Share: goldRouge1 === 0 ? 0 : audioRouge1 / goldRouge1,
    audioRougeLsum: mean(visits.map((visit) => visit.audioNote.rougeLsum)),
    goldRougeLsum: mean(visits.map((visit) => visit.goldNote.rougeLsum)),
    audioAudit: summarizeAudits(
      visits.map((visit) => visit.audioNote.audit),
      referenceNoteWords,
    ),
    goldAudit: summarizeAudits(
      visits.map((visit) => visit.goldNote.audit),
      referenceNoteWords,
    ),
    polarityDisagreements: sum((visit) => visit.polarityDisagreements.length),
  };
}

export interface Output {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export async function runE2eEval(
  argv: readonly string[],
  output: Output,
  defaults: { file: string; env: Readonly<Record<string, string | undefined>> },
): Promise<number> {
  let args: E2eArguments | 'help';
  try {
    args = parseArguments(argv, defaults.file);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.stderr(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args === 'help') {
    output.stdout(`${USAGE}\n`);
    return 0;
  }
  const records = selectRecords(parseJsonl(await readFile(args.file, 'utf8'), args.file), args);
  const service = await startService(defaults.env);
  const visits: VisitResult[] = [];
  try {
    for (const record of records) {
      const audio = dialogueAudio(record.dialogue, args.voices);
      const goldNote = await serviceRequest<Note>(service.origin, service.apiKey, 'POST', '/api/v1/notes', {
        template_id: DEFAULT_TEMPLATE,
        conversation_text: record.dialogue,
      });
      for (const layout of args.layouts) {
        output.stderr(`eval:e2e: ${record.id} ${layout} (${audio.seconds.toFixed(0)} s of audio)\n`);
        visits.push(await evaluateVisit(service, record, audio, layout, args.speed, goldNote));
      }
    }
  } finally {
    await service.close();
  }
  const referenceNoteWords = records.map((record) => countWords(record.note));
  const report: E2eReport = {
    recognizer: service.recognizer,
    voices: args.voices,
    speed: args.speed,
    layouts: args.layouts.map((layout) =>
      summarize(
        layout,
        visits.filter((visit) => visit.layout === layout),
        referenceNoteWords,
      ),
    ),
    visits,
  };
  output.stdout(args.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return 0;
}

function selectRecords(records: readonly EvalRecord[], args: E2eArguments): EvalRecord[] {
  let chosen = [...records];
  if (args.dialogues !== null) {
    const wanted = args.dialogues;
    const missing = wanted.filter((id) => !records.some((record) => record.id === id));
    if (missing.length > 0) throw new UsageError(`no dialogue ${missing.join(', ')} in the file`);
    chosen = wanted.flatMap((id) => records.filter((record) => record.id === id));
  }
  return args.limit === null ? chosen : chosen.slice(0, args.limit);
}

const percent = (value: number | null): string => (value === null ? '—' : `${(value * 100).toFixed(1)}%`);

export function formatReport(report: E2eReport): string {
  const lines = [
    `eval:e2e — ${report.visits.length / Math.max(1, report.layouts.length)} visits, voices ${report.voices.clinician} (clinician) and ${report.voices.patient} (patient), recognizer ${report.recognizer}, sent at ${report.speed}× real time`,
    '',
    ...table(
      [
        'layout',
        'WER',
        'words to the right speaker',
        'roles right',
        'ROUGE-1 audio / gold',
        'share',
        'ROUGE-Lsum audio / gold',
        '1st/2nd person (history) audio / gold',
        'chief complaint audio',
        'A&P audio',
        'negation differs',
      ],
      report.layouts.map((summary) => [
        summary.layout,
        percent(summary.wer),
        percent(summary.attribution),
        `${summary.rolesRightVisits} of ${summary.visits}`,
        `${summary.audioRouge1.toFixed(4)} / ${summary.goldRouge1.toFixed(4)}`,
        percent(summary.rouge1Share),
        `${summary.audioRougeLsum.toFixed(4)} / ${summary.goldRougeLsum.toFixed(4)}`,
        `${percent(summary.audioAudit.personShare)} / ${percent(summary.goldAudit.personShare)}`,
        percent(summary.audioAudit.chiefComplaintShare),
        percent(summary.audioAudit.assessmentAndPlanShare),
        String(summary.polarityDisagreements),
      ]),
    ),
    '',
    ...report.visits.map(
      (visit) =>
        `  ${visit.id} ${visit.layout}: WER ${percent(visit.wordErrors / Math.max(1, visit.referenceWords))}, speaker ${percent(visit.correctlyAttributed / Math.max(1, visit.attributedWords))}${visit.rolesRight ? '' : ' (roles wrong)'}, ROUGE-1 ${visit.audioNote.rouge1.toFixed(3)} / ${visit.goldNote.rouge1.toFixed(3)}, negation differs in ${visit.polarityDisagreements.length}${visit.speed === report.speed ? '' : `, sent at ${visit.speed}×`}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
