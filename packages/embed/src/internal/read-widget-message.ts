import type { WidgetDocumentType, WidgetToEmrMessage, WidgetToEmrMessageType } from '@chartwright/protocol';

/**
 * A structural check of what the widget posts, written by hand: the host page must not load a
 * validation library for a peer whose origin and window were already checked. It guards the EMR's
 * callbacks against a malformed payload and keeps only the fields the contract names.
 */
export type ReadWidgetMessage =
  | { kind: 'message'; message: WidgetToEmrMessage }
  /** A type this version does not know: a newer widget may add some, and hosts must tolerate them. */
  | { kind: 'unknown' }
  | { kind: 'invalid'; type: WidgetToEmrMessageType; problems: string[] };

type Fields = Record<string, unknown>;

const DOCUMENT_TYPES: Record<WidgetDocumentType, true> = { letter: true, referral: true, form: true, pdf: true };

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isIdentifier = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isStringMap = (value: unknown): value is Record<string, string> =>
  isObject(value) && Object.values(value).every((entry) => typeof entry === 'string');

/** Collects the problems of one message; every check names its field. */
class FieldReader {
  readonly problems: string[] = [];

  constructor(private readonly fields: Fields) {}

  string(name: string): string {
    const value = this.fields[name];
    if (typeof value === 'string') return value;
    this.problems.push(`${name}: must be a string`);
    return '';
  }

  identifier(name: string): string {
    const value = this.fields[name];
    if (isIdentifier(value)) return value;
    this.problems.push(`${name}: must be a non-empty string`);
    return '';
  }

  optionalString(name: string): string | undefined {
    const value = this.fields[name];
    if (value === undefined || typeof value === 'string') return value;
    this.problems.push(`${name}: must be a string when present`);
    return undefined;
  }
}

function read(type: WidgetToEmrMessageType, fields: Fields): { message: WidgetToEmrMessage; problems: string[] } {
  const reader = new FieldReader(fields);
  const done = (message: WidgetToEmrMessage) => ({ message, problems: reader.problems });
  switch (type) {
    case 'WIDGET_READY':
      return done({ type, version: reader.string('version') });
    case 'SESSION_STARTED':
      return done({ type, sessionId: reader.identifier('sessionId') });
    case 'PUSH_NOTE': {
      const { sections } = fields;
      if (sections !== undefined && !isStringMap(sections)) {
        reader.problems.push('sections: must map section keys to strings');
      }
      const transcript = reader.optionalString('transcript');
      return done({
        type,
        note: reader.string('note'),
        ...(isStringMap(sections) ? { sections: { ...sections } } : {}),
        ...(transcript === undefined ? {} : { transcript }),
        sessionId: reader.identifier('sessionId'),
        patientId: reader.identifier('patientId'),
      });
    }
    case 'PUSH_DOCUMENT': {
      const { documentType } = fields;
      const known = typeof documentType === 'string' && Object.hasOwn(DOCUMENT_TYPES, documentType);
      if (!known) reader.problems.push(`documentType: must be one of ${Object.keys(DOCUMENT_TYPES).join(', ')}`);
      const pdfUrl = reader.optionalString('pdfUrl');
      return done({
        type,
        title: reader.string('title'),
        content: reader.string('content'),
        documentType: known ? (documentType as WidgetDocumentType) : 'letter',
        ...(pdfUrl === undefined ? {} : { pdfUrl }),
        sessionId: reader.identifier('sessionId'),
        patientId: reader.identifier('patientId'),
      });
    }
    case 'TOKEN_EXPIRING': {
      const { expiresInMs } = fields;
      const valid = typeof expiresInMs === 'number' && Number.isFinite(expiresInMs) && expiresInMs >= 0;
      if (!valid) reader.problems.push('expiresInMs: must be a number of milliseconds, 0 or more');
      return done({ type, expiresInMs: valid ? expiresInMs : 0 });
    }
    case 'WIDGET_ERROR':
      return done({ type, code: reader.identifier('code'), message: reader.string('message') });
    case 'REQUEST_PATIENT_CONTEXT':
    case 'REQUEST_TOKEN_REFRESH':
    case 'TOKEN_EXPIRED':
      return done({ type });
  }
}

const KNOWN_TYPES: Record<WidgetToEmrMessageType, true> = {
  WIDGET_READY: true,
  SESSION_STARTED: true,
  PUSH_NOTE: true,
  PUSH_DOCUMENT: true,
  REQUEST_PATIENT_CONTEXT: true,
  TOKEN_EXPIRING: true,
  REQUEST_TOKEN_REFRESH: true,
  TOKEN_EXPIRED: true,
  WIDGET_ERROR: true,
};

const isKnownType = (type: unknown): type is WidgetToEmrMessageType =>
  typeof type === 'string' && Object.hasOwn(KNOWN_TYPES, type);

/** Reads a `message` event's data from the widget's window. */
export function readWidgetMessage(data: unknown): ReadWidgetMessage {
  if (!isObject(data) || !isKnownType(data['type'])) return { kind: 'unknown' };
  const { message, problems } = read(data['type'], data);
  return problems.length === 0 ? { kind: 'message', message } : { kind: 'invalid', type: data['type'], problems };
}
