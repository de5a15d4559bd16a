import { createHash } from 'node:crypto';

import {
  CUSTOM_TEMPLATE_ID,
  MAX_CONVERSATION_CHARACTERS,
  type CreateNoteParams,
  type Note,
  type Template,
} from '@chartwright/protocol';

import type { ProjectScope } from '../auth/principal.js';
import { generateId } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { NoteRow } from '../store/notes.js';
import type { Repositories } from '../store/repositories.js';
import type { GeneratedSection, NoteContext, NoteProducer } from './generator.js';
import { parseConversation } from '../text/parse-conversation.js';
import { renderNote, sectionText } from './render.js';
import { resolveTemplate } from './template-resolution.js';
import { findCuratedTemplate } from './templates.js';

/** Key order does not change the hash: two equal inputs always hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Engines cite context by its place in NoteContext; callers sent it as `context`, `extra_context`. */
function callerContextPath(path: string): string {
  if (path.startsWith('medical')) return `context${path.slice('medical'.length)}`;
  if (path === 'extra') return 'extra_context';
  return path;
}

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

/** What a note is written from once its template is known. */
export type NoteInput = Omit<CreateNoteParams, 'template_id' | 'sections'> & { template: Template };

function templateFor(params: CreateNoteParams): Template {
  if (params.template_id === CUSTOM_TEMPLATE_ID) {
    if (params.sections === undefined) {
      throw AppError.invalidBody([
        { path: 'sections', message: `is required with template_id "${CUSTOM_TEMPLATE_ID}"` },
      ]);
    }
    return resolveTemplate(params.sections).template;
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
  return template;
}

/** SHA-256 of everything the note was written from, so a note can be reproduced and versions compared. */
function inputHash(input: NoteInput): string {
  const { template } = input;
  return createHash('sha256')
    .update(
      canonicalJson({
        template: { id: template.id, version: template.version, sections: template.sections },
        conversation_text: input.conversation_text,
        patient: input.patient,
        context: input.context,
        extra_context: input.extra_context,
      }),
    )
    .digest('hex');
}

/** A generated section as the API returns it: its text, and each sentence's evidence as the caller named it. */
function sectionResult(section: GeneratedSection): Note['sections'][number] {
  return {
    key: section.key,
    label: section.label,
    text: sectionText(section),
    sentences: section.sentences.map((sentence) => ({
      text: sentence.text,
      evidence: { turns: sentence.evidence.turns, context: sentence.evidence.context.map(callerContextPath) },
    })),
  };
}

function noteFromRow(row: NoteRow): Note {
  return {
    id: row.id,
    object: 'note',
    template_id: row.template_id,
    template_version: row.template_version,
    note: row.note_text,
    sections: JSON.parse(row.sections) as Note['sections'],
    engine: { name: row.engine_name, version: row.engine_version },
    fallback: row.fallback === null ? null : (JSON.parse(row.fallback) as Note['fallback']),
    input_sha256: row.input_sha256,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
    style: 'detailed',
    flags: [],
    omissions: [],
    warnings: [],
    verification: null,
  };
}

/** Generates notes, stores them for the retention period, and serves them to the environment that made them. */
export class NoteService {
  constructor(
    private readonly repositories: Repositories,
    private readonly clock: Clock,
    private readonly produce: NoteProducer,
    private readonly retentionMs: number,
  ) {}

  /** POST /api/v1/notes: the caller names the template (or sends its sections). */
  async create(scope: ProjectScope, params: CreateNoteParams, signal?: AbortSignal): Promise<Note> {
    checkConversationLength(params.conversation_text, { name: 'conversation_text', path: 'conversation_text' });
    const { template_id: _templateId, sections: _sections, ...input } = params;
    return this.generate(scope, { ...input, template: templateFor(params) }, signal);
  }

  /** Writes the note with a template already resolved (the caller checked the conversation's length). */
  async generate(scope: ProjectScope, input: NoteInput, signal?: AbortSignal): Promise<Note> {
    const { template } = input;
    const context: NoteContext = {
      ...(input.patient === undefined ? {} : { patient: input.patient }),
      ...(input.context === undefined ? {} : { medical: input.context }),
      ...(input.extra_context === undefined ? {} : { extra: input.extra_context }),
    };
    const outcome = await this.produce(
      { template, conversation: parseConversation(input.conversation_text), context },
      signal === undefined ? {} : { signal },
    );
    const now = this.clock.now();
    const row: NoteRow = {
      id: generateId('note'),
      project_id: scope.projectId,
      environment: scope.environment,
      template_id: template.id,
      template_version: template.version,
      engine_name: outcome.engine.name,
      engine_version: outcome.engine.version,
      fallback: outcome.fallback === null ? null : JSON.stringify(outcome.fallback),
      input_sha256: inputHash(input),
      note_text: renderNote(outcome.note.sections),
      sections: JSON.stringify(outcome.note.sections.map(sectionResult)),
      created_at: now,
      expires_at: now + this.retentionMs,
    };
    await this.repositories.notes.insert(row);
    return noteFromRow(row);
  }

  async retrieve(scope: ProjectScope, id: string): Promise<Note> {
    const row = await this.repositories.notes.getScoped(id, scope, this.clock.now());
    if (row === undefined)
      throw new AppError('note_not_found', `No note ${id} exists for this key's project environment.`);
    return noteFromRow(row);
  }

  /** Deletes notes past their retention. Retrieval already refuses them; this frees the space. */
  async deleteExpired(): Promise<number> {
    return this.repositories.notes.deleteExpired(this.clock.now());
  }
}
