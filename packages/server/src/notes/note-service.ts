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

  async create(scope: ProjectScope, params: CreateNoteParams, signal?: AbortSignal): Promise<Note> {
    if (params.conversation_text.length > MAX_CONVERSATION_CHARACTERS) {
      throw new AppError(
        'conversation_too_long',
        `conversation_text has ${params.conversation_text.length} characters; the limit is ${MAX_CONVERSATION_CHARACTERS}.`,
        {
          details: [
            { path: 'conversation_text', message: `must be at most ${MAX_CONVERSATION_CHARACTERS} characters` },
          ],
        },
      );
    }
    const template = templateFor(params);
    const context: NoteContext = {
      ...(params.patient === undefined ? {} : { patient: params.patient }),
      ...(params.context === undefined ? {} : { medical: params.context }),
      ...(params.extra_context === undefined ? {} : { extra: params.extra_context }),
    };
    const outcome = await this.produce(
      { template, conversation: parseConversation(params.conversation_text), context },
      signal === undefined ? {} : { signal },
    );
    const sections = outcome.note.sections.map((section: GeneratedSection) => ({
      key: section.key,
      label: section.label,
      text: sectionText(section),
      sentences: section.sentences.map((sentence) => ({
        text: sentence.text,
        evidence: { turns: sentence.evidence.turns, context: sentence.evidence.context.map(callerContextPath) },
      })),
    }));
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
      input_sha256: createHash('sha256')
        .update(
          canonicalJson({
            template: { id: template.id, version: template.version, sections: template.sections },
            conversation_text: params.conversation_text,
            patient: params.patient,
            context: params.context,
            extra_context: params.extra_context,
          }),
        )
        .digest('hex'),
      note_text: renderNote(outcome.note.sections),
      sections: JSON.stringify(sections),
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
