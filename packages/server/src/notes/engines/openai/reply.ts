import { z } from 'zod';

import { formatPath, type Fact, type Template } from '@chartwright/protocol';

import type { Conversation } from '../../../text/conversation.js';
import type { GeneratedNote, GeneratedSection, NoteSentence } from '../../generator.js';

/** What validation dropped from a usable reply: counts only, safe to log. */
export interface ReplyStats {
  /** Statements kept. */
  sentences: number;
  /** Statements dropped: empty. */
  droppedSentences: number;
  /** Statements kept that cite no valid fact, turn or context id (the verifier flags them). */
  uncitedSentences: number;
  /** Fact ids, turn numbers and context ids that were not offered. */
  droppedReferences: number;
  /** Keys outside the template that came with no statements (ignored). */
  ignoredEmptyKeys: number;
}

export type ReplyResult =
  | { ok: true; note: GeneratedNote; stats: ReplyStats }
  /** Problems phrased for the model's corrective retry: paths and rules, never reply text. */
  | { ok: false; problems: string[] };

export type JsonExtraction = { found: true; value: Record<string, unknown> } | { found: false };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseObject(text: string): JsonExtraction {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? { found: true, value } : { found: false };
  } catch {
    return { found: false };
  }
}

/**
 * The JSON object in a model's reply. Servers that ignore `response_format` wrap it in prose or in
 * ``` fences, and reasoning models put a <think> block first; each of those is looked through, in
 * that order: the whole reply, each fenced block, then the span from the first `{` to the last `}`.
 */
export function extractJsonObject(reply: string): JsonExtraction {
  const text = reply.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  const whole = parseObject(text);
  if (whole.found) return whole;
  for (const match of text.matchAll(/```[a-zA-Z]*[^\S\n]*\n?([\s\S]*?)```/g)) {
    const fenced = parseObject((match[1] ?? '').trim());
    if (fenced.found) return fenced;
  }
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? parseObject(text.slice(start, end + 1)) : { found: false };
}

/** A reference list as models write it: `[3, 4]`, `["3"]`, `3` or `"3, 4"`; validity is checked later. */
const references = z
  .union([z.array(z.union([z.number(), z.string()])), z.number(), z.string(), z.null()])
  .optional()
  .transform((value): (number | string)[] => {
    if (value === undefined || value === null) return [];
    return Array.isArray(value) ? value : [value];
  });

const statementSchema = z.object({
  text: z.string({ error: 'must be an object whose "text" is a string' }),
  facts: references,
  turns: references,
  context: references,
});

const sectionsSchema = z.record(
  z.string(),
  z.array(statementSchema, { error: 'must be a list of {"text", "facts", "turns", "context"} objects' }),
);

const replySchema = z.object({ sections: sectionsSchema });

const normalizeKey = (key: string) =>
  key
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** Maps a reply key to a template key: exact first, then ignoring case and punctuation, by key or label. */
function keyResolver(template: Template): (key: string) => string | undefined {
  const exact = new Set(template.sections.map((section) => section.key));
  const loose = new Map<string, string>();
  for (const section of template.sections) {
    for (const name of [section.key, section.label]) {
      const normalized = normalizeKey(name);
      if (normalized !== '' && !loose.has(normalized)) loose.set(normalized, section.key);
    }
  }
  return (key) => (exact.has(key) ? key : loose.get(normalizeKey(key)));
}

const cleanText = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:[-*•]\s+)+/, '');

function turnNumbers(values: readonly (number | string)[]): { valid: number[]; invalid: number } {
  const valid: number[] = [];
  let invalid = 0;
  for (const value of values) {
    if (typeof value === 'number') {
      valid.push(value);
      continue;
    }
    const digits = value.match(/-?\d+(?:\.\d+)?/g);
    if (digits === null) invalid += 1;
    else valid.push(...digits.map(Number));
  }
  return { valid, invalid };
}

/**
 * Checks a model's reply against the template and the conversation, and builds the note from it.
 *
 * Fatal (the reply is refused, so the model is asked again): no JSON object; no `sections` object
 * (a reply whose top level is itself keyed by section is accepted); a section that is not a list of
 * `{text, turns, context}` objects; statements under a key the template does not have; statements
 * given but none with valid evidence.
 *
 * Repaired (dropped, and counted): an empty statement; a fact id not on the fact sheet, a turn
 * number that is not a turn of the conversation, a context id that was not offered. A statement
 * citing facts carries their turns and context as its evidence; one left citing nothing is kept,
 * uncited, for the verifier to flag. Missing sections are empty. Identical statements in a section
 * are merged with their evidence.
 */
export function parseReply(
  reply: string,
  template: Template,
  conversation: Conversation,
  contextPaths: ReadonlySet<string>,
  facts: readonly Fact[] = [],
): ReplyResult {
  const resolveKey = keyResolver(template);
  const read = readSections(reply, resolveKey);
  if (!read.ok) return read;

  const evidence: EvidenceCheck = {
    turns: new Set(conversation.turns.map((turn) => turn.index)),
    contextPaths,
    facts: new Map(facts.map((fact) => [fact.id, fact])),
  };
  const byKey = new Map<string, Map<string, NoteSentence>>(
    template.sections.map((section) => [section.key, new Map()]),
  );
  const problems: string[] = [];
  const stats: ReplyStats = {
    sentences: 0,
    droppedSentences: 0,
    uncitedSentences: 0,
    droppedReferences: 0,
    ignoredEmptyKeys: 0,
  };
  let given = 0;
  for (const [key, statements] of Object.entries(read.sections)) {
    const templateKey = resolveKey(key);
    const section = templateKey === undefined ? undefined : byKey.get(templateKey);
    if (section === undefined) {
      if (statements.length === 0) stats.ignoredEmptyKeys += 1;
      else problems.push(`sections: "${key}" is not a section of this template`);
      continue;
    }
    for (const statement of statements) if (addStatement(section, statement, evidence, stats)) given += 1;
  }

  if (given > 0 && given === stats.uncitedSentences) {
    problems.push(
      'no statement cites a fact id, a turn number of the conversation or a context id: every statement needs "facts", "turns" or "context"',
    );
  }
  if (problems.length > 0) return { ok: false, problems };

  const sections: GeneratedSection[] = template.sections.map((section) => ({
    key: section.key,
    label: section.label,
    sentences: [...(byKey.get(section.key)?.values() ?? [])],
  }));
  stats.sentences = sections.reduce((total, section) => total + section.sentences.length, 0);
  return { ok: true, note: { sections }, stats };
}

type Statement = z.infer<typeof statementSchema>;

/** What a statement may cite: the fact sheet's ids, the conversation's turns and the context ids offered. */
interface EvidenceCheck {
  turns: ReadonlySet<number>;
  contextPaths: ReadonlySet<string>;
  facts: ReadonlyMap<string, Fact>;
}

/** The reply's statements by its own section keys, or why the reply cannot be used. */
function readSections(
  reply: string,
  resolveKey: (key: string) => string | undefined,
): { ok: true; sections: Record<string, Statement[]> } | { ok: false; problems: string[] } {
  const extracted = extractJsonObject(reply);
  if (!extracted.found) return { ok: false, problems: ['the reply is not a JSON object'] };
  let candidate: unknown = extracted.value;
  if (!('sections' in extracted.value) && Object.keys(extracted.value).some((key) => resolveKey(key) !== undefined)) {
    candidate = { sections: extracted.value };
  }
  const parsed = replySchema.safeParse(candidate);
  if (parsed.success) return { ok: true, sections: parsed.data.sections };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => {
      const path = formatPath(issue.path);
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    }),
  };
}

/** A fact id as models write it: "f3", " F3 ", or the bare number 3. */
const factId = (value: number | string) => {
  const text = String(value).trim().toLowerCase();
  return /^\d+$/.test(text) ? `f${text}` : text;
};

/** The statement's references that check out: facts on the sheet, turns of the conversation, offered context ids. */
function validReferences(statement: Statement, check: EvidenceCheck, stats: ReplyStats) {
  const facts = [...new Set(statement.facts.map(factId))].filter((id) => check.facts.has(id));
  const numbers = turnNumbers(statement.turns);
  const turns = numbers.valid.filter((turn) => Number.isInteger(turn) && check.turns.has(turn));
  const context = statement.context
    .filter((path): path is string => typeof path === 'string' && check.contextPaths.has(path.trim()))
    .map((path) => path.trim());
  stats.droppedReferences +=
    statement.facts.length -
    facts.length +
    numbers.invalid +
    numbers.valid.length -
    turns.length +
    statement.context.length -
    context.length;
  const cited = facts.flatMap((id) => check.facts.get(id) ?? []);
  return {
    facts,
    turns: [...turns, ...cited.flatMap((fact) => fact.source.turns)],
    context: [...context, ...cited.flatMap((fact) => fact.source.context)],
  };
}

/**
 * Adds a statement with the references that check out, merged with an identical one already
 * there; counts what was dropped and what is left uncited. True when the statement had text.
 */
function addStatement(
  section: Map<string, NoteSentence>,
  statement: Statement,
  check: EvidenceCheck,
  stats: ReplyStats,
): boolean {
  const text = cleanText(statement.text);
  if (text === '') {
    stats.droppedSentences += 1;
    return false;
  }
  const valid = validReferences(statement, check, stats);
  if (valid.facts.length + valid.turns.length + valid.context.length === 0) stats.uncitedSentences += 1;
  const identity = text.toLowerCase();
  const existing = section.get(identity);
  const facts = [...new Set([...(existing?.facts ?? []), ...valid.facts])];
  section.set(identity, {
    text: existing?.text ?? text,
    evidence: {
      turns: [...new Set([...(existing?.evidence.turns ?? []), ...valid.turns])].sort((a, b) => a - b),
      context: [...new Set([...(existing?.evidence.context ?? []), ...valid.context])],
    },
    ...(facts.length === 0 ? {} : { facts }),
  });
  return true;
}
