import { createHash } from 'node:crypto';

import {
  CUSTOM_TEMPLATE_ID,
  MAX_CONVERSATION_CHARACTERS,
  NOTE_STYLE_DEFAULT,
  type CreateNoteParams,
  type Note,
  type NoteInclude,
  type NoteOrProgress,
  type NoteSegment,
  type Template,
} from '@chartwright/protocol';

import type { ProjectScope } from '../auth/principal.js';
import { generateId } from '../auth/secrets.js';
import { canonicalJson } from '../canonical-json.js';
import type { Clock } from '../clock.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import { AppError } from '../errors.js';
import type { NoteRow } from '../store/notes.js';
import type { Repositories } from '../store/repositories.js';
import type { Conversation } from '../text/conversation.js';
import { parseConversation } from '../text/parse-conversation.js';
import { conversationFromSegments, segmentsLength } from '../text/segment-conversation.js';
import type { GenerationInput, GenerationOutcome, NoteContext, NoteProducer } from './generator.js';
import { noteFromRow, noteOrProgressFromRow, reviewColumns, type HostKeys } from './note-records.js';
import { renderNote } from './render.js';
import { resolveTemplate } from './template-resolution.js';
import { findCuratedTemplate } from './templates.js';

/**
 * Refuses a conversation longer than MAX_CONVERSATION_CHARACTERS, named as its caller knows it: a
 * body field (`path` puts it in the error's details) or text the service put together.
 */
export function checkConversationLength(conversation: string, source: { name: string; path?: string }): void {
  if (conversation.length <= MAX_CONVERSATION_CHARACTERS) return;
  throw new AppError(
    'conversation_too_long',
    `${source.name} has ${conversation.length} characters; the limit is ${MAX_CONVERSATION_CHARACTERS}.`,
    source.path === undefined
      ? {}
      : { details: [{ path: source.path, message: `must be at most ${MAX_CONVERSATION_CHARACTERS} characters` }] },
  );
}

/** Refuses segments whose text is longer than MAX_CONVERSATION_CHARACTERS in all, naming the field. */
export function checkSegmentsLength(segments: readonly NoteSegment[], path: string): void {
  const length = segmentsLength(segments);
  if (length <= MAX_CONVERSATION_CHARACTERS) return;
  throw new AppError(
    'conversation_too_long',
    `The text of ${path} has ${length} characters; the limit is ${MAX_CONVERSATION_CHARACTERS}.`,
    { details: [{ path, message: `must hold at most ${MAX_CONVERSATION_CHARACTERS} characters of text` }] },
  );
}

/** What a note is written from once its template is known: the visit as text or as segments. */
export type NoteInput = Omit<CreateNoteParams, 'template_id' | 'sections' | 'include' | 'async' | 'callback_url'> & {
  template: Template;
  /** The caller's key for each template section, when it named its own (`custom` sections). */
  hostKeys?: HostKeys;
  /**
   * `conversation_text` already parsed, with the recognizer's words on its turns (a widget
   * encounter's recording): written from instead of parsing the text again.
   */
  conversation?: Conversation;
};

function conversationOf(input: NoteInput): Conversation {
  if (input.conversation !== undefined) return input.conversation;
  return input.segments === undefined
    ? parseConversation(input.conversation_text ?? '')
    : conversationFromSegments(input.segments);
}

function templateFor(params: CreateNoteParams): { template: Template; hostKeys?: HostKeys } {
  if (params.template_id === CUSTOM_TEMPLATE_ID) {
    if (params.sections === undefined) {
      throw AppError.invalidBody([
        { path: 'sections', message: `is required with template_id "${CUSTOM_TEMPLATE_ID}"` },
      ]);
    }
    // The SOAP labels resolve to the curated template, whose sections then answer under the caller's keys.
    const { template, sectionKeys } = resolveTemplate(params.sections);
    return { template, hostKeys: new Map(sectionKeys.map((section) => [section.templateKey, section.hostKey])) };
  }
  if (params.sections !== undefined) {
    throw AppError.invalidBody([
      { path: 'sections', message: `is only allowed with template_id "${CUSTOM_TEMPLATE_ID}"` },
    ]);
  }
  const template = findCuratedTemplate(params.template_id);
  if (template === undefined) {
    throw new AppError('template_not_found', `No template has the id ${JSON.stringify(params.template_id)}.`, {
      details: [{ path: 'template_id', message: 'is not a template id; GET /api/v1/templates lists them' }],
    });
  }
  return { template };
}

/** SHA-256 of everything the note was written from, so a note can be reproduced and versions compared. */
function inputHash(input: NoteInput): string {
  const { template } = input;
  return createHash('sha256')
    .update(
      canonicalJson({
        template: { id: template.id, version: template.version, sections: template.sections },
        conversation_text: input.conversation_text,
        segments: input.segments,
        // What the recognizer was unsure of changes what the note flags.
        words: input.conversation?.turns.some((turn) => turn.words !== undefined)
          ? input.conversation.turns.map((turn) => turn.words ?? null)
          : undefined,
        style: input.style ?? NOTE_STYLE_DEFAULT,
        patient: input.patient,
        context: input.context,
        extra_context: input.extra_context,
      }),
    )
    .digest('hex');
}

function noteContextOf(input: NoteInput): NoteContext {
  return {
    ...(input.patient === undefined ? {} : { patient: input.patient }),
    ...(input.context === undefined ? {} : { medical: input.context }),
    ...(input.extra_context === undefined ? {} : { extra: input.extra_context }),
  };
}

/**
 * What the engines are given for a note: the conversation parsed (a long one takes tens of
 * milliseconds, so this runs where the engine runs: in a note worker, not on the event loop).
 */
export function generationInputOf(input: NoteInput): GenerationInput {
  return {
    template: input.template,
    conversation: conversationOf(input),
    context: noteContextOf(input),
    style: input.style ?? NOTE_STYLE_DEFAULT,
  };
}

/** What the worker needs of a NoteInput: the caller's section keys only matter to the stored note. */
export type NoteJob = Omit<NoteInput, 'hostKeys'>;

/** Writes a note from its input: a NoteProducer behind the parse (the note worker pool in the service). */
export type NoteWriter = (
  input: NoteJob,
  options?: {
    signal?: AbortSignal;
    /** Whose note it is (a project environment): the pool writes different tenants' notes in turn. */
    tenant?: string;
  },
) => Promise<GenerationOutcome>;

/** The NoteWriter that parses and generates in this thread (what each note worker runs). */
export function writerOf(produce: NoteProducer): NoteWriter {
  return (input, options) => produce(generationInputOf(input), options);
}

export interface GenerateOptions {
  signal?: AbortSignal;
  /** What to return beside the note (it is stored either way). */
  include?: readonly NoteInclude[];
}

/** A create request checked, its template resolved: what a note is written from, now or later. */
interface PreparedNote {
  input: NoteInput;
  include: NoteInclude[];
}

/** The columns a note gets beside the note itself: `ready`, written at its first attempt, nothing queued. */
export const WRITTEN_NOW = {
  status: 'ready',
  attempt: 1,
  started_at: null,
  run_after: null,
  error_code: null,
  error_message: null,
  callback_url: null,
  request: null,
  includes: null,
} as const;

/** The columns of a written note (`ready`), for a new row or a queued one. */
export type WrittenColumns = Omit<
  NoteRow,
  'id' | 'project_id' | 'environment' | 'created_at' | 'expires_at' | keyof typeof WRITTEN_NOW
> & {
  status: 'ready';
};

/** Generates notes, stores them for the retention period, and serves them to the environment that made them. */
export class NoteService {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly write: NoteWriter,
    private readonly retentionMs: number,
    private readonly usage: UsageRecorder,
  ) {}

  /** POST /api/v1/notes: the caller names the template (or sends its sections). */
  async create(scope: ProjectScope, params: CreateNoteParams, signal?: AbortSignal): Promise<Note> {
    const { input, include } = prepare(params);
    return this.generate(scope, input, { include, ...(signal && { signal }) });
  }

  /** Writes the note with a template already resolved (the caller checked the conversation's length). */
  async generate(scope: ProjectScope, input: NoteInput, options: GenerateOptions = {}): Promise<Note> {
    const columns = await this.written(scope, input, options.signal);
    const now = this.clock.now();
    const row: NoteRow = {
      id: generateId('note'),
      project_id: scope.projectId,
      environment: scope.environment,
      created_at: now,
      expires_at: now + this.retentionMs,
      ...columns,
      ...WRITTEN_NOW,
    };
    await this.repositories.notes.insert(row);
    this.usage.count(scope, 'notesGenerated');
    return noteFromRow(row, options.include);
  }

  /**
   * Stores the request as a `queued` note (POST with `async: true`), checked as a synchronous one is,
   * to be written by a job (notes/async-notes.ts). Its retention runs from now, written or not.
   */
  async queue(scope: ProjectScope, params: CreateNoteParams, callbackUrl: string | null): Promise<NoteRow> {
    const { input, include } = prepare(params);
    const { async: _async, callback_url: _callbackUrl, ...request } = params;
    const now = this.clock.now();
    const row: NoteRow = {
      id: generateId('note'),
      project_id: scope.projectId,
      environment: scope.environment,
      template_id: input.template.id,
      template_version: input.template.version,
      // Empty until it is written: only a `ready` note is read as a note.
      engine_name: '',
      engine_version: '',
      fallback: null,
      input_sha256: inputHash(input),
      note_text: '',
      sections: '[]',
      created_at: now,
      expires_at: now + this.retentionMs,
      style: input.style ?? NOTE_STYLE_DEFAULT,
      flags: null,
      omissions: null,
      warnings: null,
      verification: null,
      facts: null,
      ...WRITTEN_NOW,
      status: 'queued',
      attempt: 0,
      callback_url: callbackUrl,
      request: JSON.stringify(request),
      includes: JSON.stringify(include),
    };
    await this.repositories.notes.insert(row);
    return row;
  }

  /** Writes a queued note's request (in the worker pool, as any note); the columns to store it with. */
  async writeQueued(row: Pick<NoteRow, 'project_id' | 'environment' | 'request'>): Promise<WrittenColumns> {
    const params = JSON.parse(row.request ?? 'null') as CreateNoteParams;
    return this.written({ projectId: row.project_id, environment: row.environment }, prepare(params).input);
  }

  /** Counts a note written by a job, once it is stored. */
  countWritten(scope: ProjectScope): void {
    this.usage.count(scope, 'notesGenerated');
  }

  /** A note in whatever status it is: written, or where it stands. */
  async retrieve(scope: ProjectScope, id: string, include: readonly NoteInclude[] = []): Promise<NoteOrProgress> {
    const row = await this.repositories.notes.getScoped(id, scope, this.clock.now());
    if (row === undefined)
      throw new AppError('note_not_found', `No note ${id} exists for this key's project environment.`);
    return noteOrProgressFromRow(row, include);
  }

  private async written(scope: ProjectScope, input: NoteInput, signal?: AbortSignal): Promise<WrittenColumns> {
    const { hostKeys, ...job } = input;
    const { template } = input;
    const outcome = await this.write(job, {
      tenant: `${scope.projectId}/${scope.environment}`,
      ...(signal === undefined ? {} : { signal }),
    });
    return {
      template_id: template.id,
      template_version: template.version,
      engine_name: outcome.engine.name,
      engine_version: outcome.engine.version,
      fallback: outcome.fallback === null ? null : JSON.stringify(outcome.fallback),
      input_sha256: inputHash(input),
      note_text: renderNote(outcome.note.sections),
      style: input.style ?? NOTE_STYLE_DEFAULT,
      ...reviewColumns(outcome.note, hostKeys),
      status: 'ready',
    };
  }
}

/** Checks what the schema cannot (the conversation's length, the template) and resolves the template. */
function prepare(params: CreateNoteParams): PreparedNote {
  if (params.segments !== undefined) checkSegmentsLength(params.segments, 'segments');
  else
    checkConversationLength(params.conversation_text ?? '', { name: 'conversation_text', path: 'conversation_text' });
  const {
    template_id: _templateId,
    sections: _sections,
    include = [],
    async: _async,
    callback_url: _callbackUrl,
    ...input
  } = params;
  return { input: { ...input, ...templateFor(params) }, include };
}
