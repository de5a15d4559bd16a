import type {
  Fact,
  Note,
  NoteInclude,
  NoteOrProgress,
  NoteProgress,
  NoteVerification,
  NoteWarning,
  Omission,
  ReviewFlag,
} from '@chartwright/protocol';

import type { NoteRow } from '../store/notes.js';
import type { GeneratedNote, GeneratedSection } from './generator.js';
import { sectionText } from './render.js';

/** The key each template section is returned under, when the caller named its own (custom sections). */
export type HostKeys = ReadonlyMap<string, string>;

const hostKey = (hostKeys: HostKeys | undefined, key: string): string => hostKeys?.get(key) ?? key;

/** Engines cite context by its place in NoteContext; callers sent it as `context`, `extra_context`. */
function callerContextPath(path: string): string {
  if (path.startsWith('medical')) return `context${path.slice('medical'.length)}`;
  if (path === 'extra') return 'extra_context';
  return path;
}

/** A generated section as the API returns it: its text, and each sentence's evidence as the caller named it. */
function sectionResult(section: GeneratedSection, hostKeys: HostKeys | undefined): Note['sections'][number] {
  return {
    key: hostKey(hostKeys, section.key),
    label: section.label,
    text: sectionText(section),
    sentences: section.sentences.map((sentence) => ({
      text: sentence.text,
      evidence: { turns: sentence.evidence.turns, context: sentence.evidence.context.map(callerContextPath) },
      ...(sentence.support === undefined ? {} : { support: sentence.support }),
      ...(sentence.facts === undefined ? {} : { facts: sentence.facts }),
    })),
  };
}

/** A flag names its section as the caller knows it. */
function flagResult(flag: ReviewFlag, hostKeys: HostKeys | undefined): ReviewFlag {
  return flag.section === null ? flag : { ...flag, section: hostKey(hostKeys, flag.section) };
}

const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** The columns of a notes row that hold what the engine (and its verifier) said beside the text. */
export function reviewColumns(
  note: GeneratedNote,
  hostKeys: HostKeys | undefined,
): Pick<NoteRow, 'sections' | 'flags' | 'omissions' | 'warnings' | 'verification' | 'facts'> {
  return {
    sections: JSON.stringify(note.sections.map((section) => sectionResult(section, hostKeys))),
    flags: jsonOrNull(note.flags?.map((flag) => flagResult(flag, hostKeys))),
    omissions: jsonOrNull(note.omissions),
    warnings: jsonOrNull(note.warnings),
    verification: jsonOrNull(note.verification ?? undefined),
    facts: jsonOrNull(note.facts),
  };
}

function parsed<T>(json: string | null, empty: T): T {
  return json === null ? empty : (JSON.parse(json) as T);
}

/** What every stored note says about how to review it; notes stored before 0008 have none of it. */
export interface NoteReview {
  style: Note['style'];
  flags: ReviewFlag[];
  omissions: Omission[];
  warnings: NoteWarning[];
  verification: NoteVerification | null;
}

export function noteReviewOf(
  row: Pick<NoteRow, 'style' | 'flags' | 'omissions' | 'warnings' | 'verification'>,
): NoteReview {
  return {
    style: row.style,
    flags: parsed<ReviewFlag[]>(row.flags, []),
    omissions: parsed<Omission[]>(row.omissions, []),
    warnings: parsed<NoteWarning[]>(row.warnings, []),
    verification: parsed<NoteVerification | null>(row.verification, null),
  };
}

/** The stored note as the API returns it; its facts only when asked. */
export function noteFromRow(row: NoteRow, include: readonly NoteInclude[] = []): Note {
  return {
    id: row.id,
    object: 'note',
    status: 'ready',
    template_id: row.template_id,
    template_version: row.template_version,
    note: row.note_text,
    sections: JSON.parse(row.sections) as Note['sections'],
    engine: { name: row.engine_name, version: row.engine_version },
    fallback: row.fallback === null ? null : (JSON.parse(row.fallback) as Note['fallback']),
    input_sha256: row.input_sha256,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
    ...noteReviewOf(row),
    ...(include.includes('facts') ? { facts: parsed<Fact[]>(row.facts, []) } : {}),
  };
}

/** An asynchronous note that is not written: where it stands, and why it failed when it did. */
export function noteProgressFromRow(row: NoteRow & { status: NoteProgress['status'] }): NoteProgress {
  return {
    id: row.id,
    object: 'note',
    status: row.status,
    template_id: row.template_id,
    style: row.style,
    callback_url: row.callback_url,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
    error:
      row.status === 'failed'
        ? { code: row.error_code ?? 'note_generation_failed', message: row.error_message ?? '' }
        : null,
  };
}

/** The stored note as GET /api/v1/notes/{id} returns it, whatever its status. */
export function noteOrProgressFromRow(row: NoteRow, include: readonly NoteInclude[] = []): NoteOrProgress {
  const { status } = row;
  return status === 'ready' ? noteFromRow(row, include) : noteProgressFromRow({ ...row, status });
}
