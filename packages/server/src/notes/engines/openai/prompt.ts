import type { Fact, Template } from '@chartwright/protocol';

import type { Conversation, ConversationTurn } from '../../../text/conversation.js';
import type { NoteContext } from '../../generator.js';
import { factSheetText } from './fact-sheet.js';

/** Bumped whenever the prompt's wording or the reply shape changes, so notes stay reproducible. */
export const OPENAI_PROMPT_VERSION = 2;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A piece of the supplied context the model may cite, under the path that note evidence uses. */
export interface ContextItem {
  /** As in `Evidence.context`: `medical.allergies[0]`, `patient.dob`, `extra`. */
  path: string;
  text: string;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `name; severity: severe; reaction: rash`, leaving out what is not given. */
function describe(name: string, fields: Record<string, string | undefined>): string {
  const parts = [oneLine(name)];
  for (const [label, value] of Object.entries(fields)) {
    if (value !== undefined && value.trim() !== '') parts.push(`${label}: ${oneLine(value)}`);
  }
  return parts.join('; ');
}

type AddItem = (path: string, text: string | undefined) => void;

/**
 * The context the model sees, item by item. Of the patient, only what a note may state (name, date
 * of birth, gender) is sent: identifiers and contact details never reach the provider.
 */
export function contextItems(context: NoteContext): ContextItem[] {
  const items: ContextItem[] = [];
  const add: AddItem = (path, text) => {
    if (text !== undefined && text.trim() !== '') items.push({ path, text: oneLine(text) });
  };
  if (context.patient !== undefined) addPatient(context.patient, add);
  if (context.medical !== undefined) addMedical(context.medical, add);
  add('extra', context.extra);
  return items;
}

function addPatient(patient: NonNullable<NoteContext['patient']>, add: AddItem): void {
  const parts = [patient.firstName, patient.lastName].filter((part) => part !== undefined && part.trim() !== '');
  if (patient.name !== undefined && patient.name.trim() !== '') add('patient.name', patient.name);
  else if (parts.length > 0) add('patient.name', parts.join(' '));
  add('patient.dob', patient.dob === undefined ? undefined : `date of birth ${patient.dob}`);
  add(
    'patient.gender',
    patient.gender === undefined || patient.gender === 'unknown' ? undefined : `gender ${patient.gender}`,
  );
}

function addMedical(medical: NonNullable<NoteContext['medical']>, add: AddItem): void {
  add(
    'medical.chiefComplaint',
    medical.chiefComplaint === undefined ? undefined : `chief complaint: ${medical.chiefComplaint}`,
  );
  add(
    'medical.medicalHistory',
    medical.medicalHistory === undefined ? undefined : `medical history: ${medical.medicalHistory}`,
  );
  medical.allergies?.forEach((allergy, index) => {
    add(
      `medical.allergies[${index}]`,
      `allergy: ${describe(allergy.name, { severity: allergy.severity, reaction: allergy.reaction })}`,
    );
  });
  medical.medications?.forEach((medication, index) => {
    add(
      `medical.medications[${index}]`,
      `medication: ${describe(medication.name, {
        dosage: medication.dosage,
        frequency: medication.frequency,
        started: medication.startDate,
        status: medication.status,
      })}`,
    );
  });
  medical.diagnoses?.forEach((diagnosis, index) => {
    add(
      `medical.diagnoses[${index}]`,
      `diagnosis: ${describe(diagnosis.name, {
        code: diagnosis.code === undefined ? undefined : `${diagnosis.codeSystem ?? ''} ${diagnosis.code}`,
        date: diagnosis.date,
        status: diagnosis.status,
      })}`,
    );
  });
  medical.labResults?.forEach((result, index) => {
    const value =
      result.value === undefined ? undefined : `${result.value}${result.unit === undefined ? '' : ` ${result.unit}`}`;
    add(
      `medical.labResults[${index}]`,
      `lab result: ${describe(result.name, { value, 'normal range': result.normalRange, date: result.date })}`,
    );
  });
  for (const [key, value] of Object.entries(medical.customData ?? {})) {
    add(`medical.customData.${key}`, `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
}

function speakerName(turn: ConversationTurn): string {
  switch (turn.speaker) {
    case 'clinician':
    case 'patient':
      return turn.speaker;
    case 'other':
      return turn.speakerLabel === null ? 'other' : `other (${oneLine(turn.speakerLabel)})`;
    case 'unknown':
      return 'unknown speaker';
  }
}

/** One line per turn, `[index] speaker: text`: the numbers the model cites as evidence. */
export function numberedConversation(conversation: Conversation): string {
  return conversation.turns.map((turn) => `[${turn.index}] ${speakerName(turn)}: ${oneLine(turn.text)}`).join('\n');
}

/** The reply shape, spelled out with the template's own keys. */
export function replyExample(template: Template): string {
  const sections = template.sections.map((section, index) =>
    index === 0
      ? `    ${JSON.stringify(section.key)}: [{ "text": "<one statement>", "facts": [<fact ids>], "turns": [<turn numbers>], "context": [<context ids>] }]`
      : `    ${JSON.stringify(section.key)}: []`,
  );
  return `{\n  "sections": {\n${sections.join(',\n')}\n  }\n}`;
}

export function systemPrompt(template: Template): string {
  const sections = template.sections
    .map((section) => `- "${section.key}" (${oneLine(section.label)}): ${oneLine(section.description)}`)
    .join('\n');
  return `You are a clinical documentation assistant. From the transcript of a clinical encounter and the context supplied with it, you write the sections of a note for the template "${oneLine(template.name)}" (${oneLine(template.description)}).

Faithfulness rules. They come before everything else:
1. State only facts that are said in the conversation or given in the context. Never invent or assume a symptom, finding, vital sign, test result, medication, dose, frequency, allergy, diagnosis or plan.
2. Keep negations and uncertainty exactly as stated ("denies chest pain", "possible migraine"); never turn a possibility into a diagnosis.
3. Copy numbers, doses, units and drug names exactly as given.
4. When nothing in the conversation or context belongs in a section, leave that section an empty list. Never fill a section with "not discussed", "none", "N/A" or normal findings nobody stated.
5. Every statement cites its evidence: "facts" lists the ids of the facts it states (f1, f2 … from the fact sheet), "turns" the numbers of the conversation turns it comes from (the [n] before each turn) and "context" the ids of the context items it comes from. A statement that cites nothing is flagged to the clinician as unchecked.
6. Every statement is checked against the facts it cites: one that denies a present fact or asserts an absent one, gives a relative's condition to the patient, names another side, or states a number or dose that the facts and turns do not hold is removed.
7. A fact about a relative is family history: say whose it is. An "absent" fact is a denial or a normal finding: write it as one.
8. Write in concise clinical note style, in the third person, without small talk or filler; one statement per item. Put each statement in the one section it fits best.

The note's sections, by key (label): what belongs there.
${sections}

Reply with one JSON object and nothing else, in exactly this shape, with every one of these section keys and no other:
${replyExample(template)}`;
}

export function userPrompt(conversation: Conversation, context: NoteContext, facts: readonly Fact[] = []): string {
  const items = contextItems(context);
  const contextText =
    items.length === 0
      ? 'Context: none.'
      : `Context (cite these ids in "context"):\n${items.map((item) => `- ${item.path}: ${item.text}`).join('\n')}`;
  return `Conversation (cite these turn numbers in "turns"):\n${numberedConversation(conversation)}\n\n${factSheetText(facts)}\n\n${contextText}`;
}

/** The first request: the rules and template, then the conversation, the fact sheet and the context. */
export function initialMessages(
  template: Template,
  conversation: Conversation,
  context: NoteContext,
  facts: readonly Fact[] = [],
): ChatMessage[] {
  return [
    { role: 'system', content: systemPrompt(template) },
    { role: 'user', content: userPrompt(conversation, context, facts) },
  ];
}

/**
 * The follow-up after an unusable reply: the problems found (paths and rules, never note text of
 * our own) and the shape again.
 */
export function correctionMessage(template: Template, problems: readonly string[]): ChatMessage {
  const listed = problems.slice(0, 20).map((problem) => `- ${problem}`);
  if (problems.length > listed.length) listed.push(`- and ${problems.length - listed.length} more`);
  return {
    role: 'user',
    content: `Your reply could not be used:\n${listed.join('\n')}\n\nReply again with only the JSON object, in exactly this shape, with every one of these section keys (${template.sections
      .map((section) => `"${section.key}"`)
      .join(', ')}) and no other, and with evidence for every statement:\n${replyExample(template)}`,
  };
}
