/**
 * Speaker labels checked against what each speaker says. Transcripts arrive with the clinician
 * and the patient swapped — a diarizer that guessed the first voice wrong, a scribe tool that
 * labelled by seat — and a note read from swapped labels files the doctor's questions as the
 * patient's history and the patient's answers as the plan. The clinician is the one who asks,
 * examines, reviews results and prescribes; when the speaker labelled patient does that far more
 * than the one labelled clinician, the labels are swapped back.
 */
import type { Conversation, ConversationTurn } from './conversation.js';

/** What a clinician says and a patient rarely does. */
const CLINICIAN_LANGUAGE =
  /\b(?:physical exam\w*|let me (?:examine|take a look|listen|check)|take a listen|on (?:your|the) (?:exam|examination)|i reviewed your|(?:look|looking) at your (?:results|labs|x-ray|vitals)|your (?:vitals|vital signs|lab work|results|labs|x-ray|mri|blood work|ekg|exam)|i (?:want|would like|'d like) (?:you to|to (?:order|start|prescribe|refer|get|check))|i(?:'m| am) going to (?:order|prescribe|refer|start|send)|(?:we'll|we will|let's) (?:order|get|start|check|refer)|follow up|what brings you|how can i help|any (?:fever|chills|nausea|vomiting|chest pain|shortness of breath|pain)|my (?:assessment|plan|impression)|your (?:blood pressure|heart|lungs|belly|abdomen)|diagnos\w+ (?:you|with))\b/g;
/** What a patient says and a clinician rarely does. */
const PATIENT_LANGUAGE =
  /\b(?:my (?:doctor|pcp|primary care|wife|husband|son|daughter|job|work|back|knee|stomach|chest|head|pain)|i(?:'ve| have) been (?:having|feeling|taking)|it hurts|i feel|i(?:'m| am) taking|thank you,? doctor|thanks,? doc\w*|i (?:noticed|started) (?:having|feeling|to))\b/g;

const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

interface RoleEvidence {
  clinician: number;
  patient: number;
}

function evidenceOf(turns: readonly ConversationTurn[]): RoleEvidence {
  let clinician = 0;
  let patient = 0;
  for (const turn of turns) {
    const text = turn.text.toLowerCase();
    clinician += count(text, CLINICIAN_LANGUAGE) + (text.includes('?') ? 0.5 : 0);
    patient += count(text, PATIENT_LANGUAGE);
  }
  return { clinician, patient };
}

/** How clearly one evidence reads as a clinician's: clinician language less patient language. */
const lean = (evidence: RoleEvidence) => evidence.clinician - evidence.patient;

/** The margin a swap needs: an even or marginal reading keeps the labels the transcript gave. */
const SWAP_MARGIN = 4;

/** True when the turns labelled patient read as a clinician's and those labelled clinician do not. */
export function labelsLookSwapped(conversation: Conversation): boolean {
  const labelled = (speaker: ConversationTurn['speaker']) =>
    conversation.turns.filter((turn) => turn.speaker === speaker);
  const clinician = labelled('clinician');
  const patient = labelled('patient');
  if (clinician.length === 0 || patient.length === 0) return false;
  const asLabelled = lean(evidenceOf(clinician));
  const swapped = lean(evidenceOf(patient));
  return swapped - asLabelled >= SWAP_MARGIN && swapped > 2 * Math.max(asLabelled, 0);
}

/** The conversation with clinician and patient swapped when the labels look swapped; else as given. */
export function withCheckedRoles(conversation: Conversation): { conversation: Conversation; swapped: boolean } {
  if (!labelsLookSwapped(conversation)) return { conversation, swapped: false };
  const swap = (speaker: ConversationTurn['speaker']): ConversationTurn['speaker'] =>
    speaker === 'clinician' ? 'patient' : speaker === 'patient' ? 'clinician' : speaker;
  return {
    conversation: { turns: conversation.turns.map((turn) => ({ ...turn, speaker: swap(turn.speaker) })) },
    swapped: true,
  };
}
