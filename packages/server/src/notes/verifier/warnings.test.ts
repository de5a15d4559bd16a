import { describe, expect, it } from 'vitest';

import type { Conversation } from '../../text/conversation.js';
import { parseConversation } from '../../text/parse-conversation.js';
import { extractFacts } from '../facts/sheet.js';
import { findCuratedTemplate } from '../templates.js';
import { looksEnglish, noteWarnings } from './warnings.js';

const template = findCuratedTemplate('soap');
if (template === undefined) throw new Error('no soap template');
const warningsFor = (conversation: Conversation) =>
  noteWarnings(conversation, extractFacts({ template, conversation, context: {} }).facts).map(
    (warning) => warning.code,
  );

// Visits written for these tests.
const ENGLISH = `[doctor] what brings you in today ?
[patient] i have had a sore throat and a fever for three days , and it hurts when i swallow .
[doctor] any cough ? [patient] no cough . [doctor] i think this is a viral infection , so rest and fluids .`;
const SPANISH = `[doctor] buenos días , ¿qué le trae por aquí hoy ?
[patient] tengo dolor de garganta y fiebre desde hace tres días , y me duele mucho al tragar la comida .
[doctor] ¿tiene tos ? [patient] no , tos no tengo . [doctor] creo que es una infección viral , descanse y beba líquidos .`;
const SMALL_TALK = `[doctor] good morning , how was the drive over here today ?
[patient] oh it was fine , a little traffic on the bridge but nothing too bad at all .
[doctor] that is good to hear . did you see the game last night ? [patient] yes , what a finish that was .`;

describe('note warnings', () => {
  it('gives none for an English visit with clinical content', () => {
    expect(warningsFor(parseConversation(ENGLISH))).toEqual([]);
  });

  it('warns when the conversation is not English', () => {
    expect(looksEnglish(SPANISH)).toBe(false);
    expect(looksEnglish(ENGLISH)).toBe(true);
    expect(looksEnglish('dolor de garganta')).toBe(true); // too short to judge
    expect(warningsFor(parseConversation(SPANISH))).toContain('not_english');
  });

  it('warns when nothing clinical was said', () => {
    expect(warningsFor(parseConversation(SMALL_TALK))).toEqual(['no_clinical_content']);
  });

  it('warns when most recognized words were heard with low confidence, and only then', () => {
    const heard = (confidence: number): Conversation => {
      const conversation = parseConversation(ENGLISH);
      return {
        turns: conversation.turns.map((turn) => ({
          ...turn,
          words: turn.text.split(/\s+/).map((word) => ({ word, confidence })),
        })),
      };
    };
    expect(warningsFor(heard(0.3))).toEqual(['low_confidence_transcript']);
    expect(warningsFor(heard(0.9))).toEqual([]);
  });

  it('words each warning for the clinician', () => {
    const [warning] = noteWarnings(parseConversation(SMALL_TALK), []);
    expect(warning?.message).toMatch(/clinical content/);
  });
});
