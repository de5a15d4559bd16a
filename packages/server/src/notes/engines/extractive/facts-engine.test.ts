import { describe, expect, it } from 'vitest';

import type { GeneratedNote } from '../../generator.js';
import { parseConversation } from '../../../text/parse-conversation.js';
import { findCuratedTemplate } from '../../templates.js';
import { extractiveGenerator } from './index.js';

// A visit written for this test (no data set text), in recognizer style.
const VISIT = `[doctor] good morning . what brings you in today ?
[patient] i've had this cough for about two weeks and it's worse at night .
[doctor] any fever ?
[patient] no , no fever .
[doctor] any chest pain ?
[patient] no .
[doctor] what medicines are you taking ?
[patient] i take lisinopril ten milligrams once a day for my blood pressure .
[doctor] okay . your vitals look good today . on exam , your lungs are clear , no wheezing .
[doctor] so i think this is a viral bronchitis . for your cough , i want you to use honey and fluids , and i'm going to order a chest x-ray if it's not better in a week . let's follow up in two weeks .
[patient] okay , thank you .`;

const PERSON = /\b(?:i|i'm|me|my|we|us|our|you|your)\b/i;

/** The history-and-physical note of a visit (by default the one above). */
async function note(visit = VISIT): Promise<GeneratedNote> {
  const template = findCuratedTemplate('history_and_physical');
  if (template === undefined) throw new Error('no history_and_physical template');
  return extractiveGenerator.generate({ template, conversation: parseConversation(visit), context: {} });
}

const sectionText = (generated: GeneratedNote, key: string) =>
  generated.sections
    .find((section) => section.key === key)
    ?.sentences.map((sentence) => sentence.text)
    .join(' ') ?? '';

describe('the extractive engine, writing from the facts', () => {
  it('writes the history in the third person with a chief complaint and the pertinent negatives', async () => {
    const generated = await note();
    expect(sectionText(generated, 'chief_complaint')).toMatch(/cough/i);
    const history = ['history_of_present_illness', 'review_of_systems', 'physical_exam']
      .map((key) => sectionText(generated, key))
      .join(' ');
    expect(history).not.toMatch(PERSON);
    expect(history).toMatch(/denies (?:fever|chest pain)/i);
    expect(history).not.toMatch(/endorses (?:fever|chest pain)/i);
  });

  it('lists the medicine with its dose and frequency, and files the plan under the plan', async () => {
    const generated = await note();
    expect(sectionText(generated, 'medications')).toMatch(/lisinopril 10 mg daily/i);
    expect(sectionText(generated, 'assessment')).toMatch(/bronchitis/i);
    expect(sectionText(generated, 'plan')).toMatch(/x-ray/i);
  });

  it('cites evidence for every sentence and returns the facts it wrote from', async () => {
    const generated = await note();
    const sentences = generated.sections.flatMap((section) => section.sentences);
    expect(sentences.length).toBeGreaterThan(5);
    for (const sentence of sentences) {
      expect(sentence.evidence.turns.length + sentence.evidence.context.length, sentence.text).toBeGreaterThan(0);
    }
    const fever = generated.facts?.find((fact) => fact.kind === 'problem' && fact.text === 'fever');
    expect(fever).toMatchObject({ polarity: 'absent', subject: { type: 'patient' } });
  });
});

describe('the concise style', () => {
  async function both(templateId: string) {
    const template = findCuratedTemplate(templateId);
    if (template === undefined) throw new Error(`no ${templateId} template`);
    const conversation = parseConversation(VISIT);
    const generate = (style: 'detailed' | 'concise') =>
      extractiveGenerator.generate({ template, conversation, context: {}, style });
    return { detailed: await generate('detailed'), concise: await generate('concise') };
  }
  const words = (note: GeneratedNote) =>
    note.sections.flatMap((section) => section.sentences).reduce((sum, s) => sum + s.text.split(/\s+/).length, 0);

  it('writes fewer words from the same facts, keeping the assessment and the plan', async () => {
    const { detailed, concise } = await both('soap');
    expect(words(concise)).toBeLessThan(words(detailed));
    expect(sectionText(concise, 'assessment')).toMatch(/bronchitis/i);
    expect(sectionText(concise, 'plan')).toMatch(/x-ray|follow up/i);
    // Every concise sentence states facts the detailed note stated.
    const detailedFacts = new Set(
      detailed.sections.flatMap((section) => section.sentences.flatMap((s) => s.facts ?? [])),
    );
    for (const fact of concise.sections.flatMap((section) => section.sentences.flatMap((s) => s.facts ?? []))) {
      expect(detailedFacts.has(fact), fact).toBe(true);
    }
  });

  it('puts the complaint and its pertinent negatives in one line each, and a list on one line', async () => {
    const { concise } = await both('soap');
    const subjective = sectionText(concise, 'subjective');
    expect(subjective).toMatch(/reports cough for about 2 weeks/i);
    expect(subjective).toContain('Denies fever or chest pain.');
    expect(subjective).toContain('Medications: Lisinopril 10 mg daily.');
  });
});

describe('the history sections, written from the facts', () => {
  // Written for this test: a companion's account, a relative's "same thing", a denied history.
  const HISTORY_VISIT = `[doctor] How has your asthma been?
[patient] The asthma has been acting up since October. My sister has the same thing.
[doctor] Any surgeries?
[patient] None.
[doctor] Do you drink?
[patient] A glass of wine now and then.
[wife] More like three every night.
[doctor] And how is your type 2 diabetes?
[patient] Good, my diabetes is controlled with diet.`;

  const historyNote = () => note(HISTORY_VISIT);

  it("keeps a companion's account apart, marked as theirs", async () => {
    const social = sectionText(await historyNote(), 'social_history');
    expect(social).toMatch(/alcohol use: 3 every night, per companion\./i);
    expect(social).toMatch(/alcohol use: a glass of wine\.\s*alcohol use: 3 every night, per companion\./i);
  });

  it("charts a denied surgical history and a relative's condition as family history", async () => {
    const generated = await historyNote();
    expect(sectionText(generated, 'past_medical_history')).toContain('No past surgical history.');
    expect(sectionText(generated, 'family_history')).toMatch(/sister with asthma/i);
  });

  it('names a diagnosis once, and never as a symptom in the review of systems', async () => {
    const generated = await historyNote();
    expect(sectionText(generated, 'review_of_systems')).not.toMatch(/asthma/i);
    expect(sectionText(generated, 'past_medical_history')).not.toMatch(/type 2 diabetes[^.]*\bdiabetes\b/i);
  });
});

describe('the story of the present illness', () => {
  it('does not list again a symptom the story told in its own words', async () => {
    // Written for this test.
    const visit = `[doctor] What brings you in?
[patient] I have been feeling lightheaded every once in a while, and my belly gets bloated after dinner.
[doctor] Okay.`;
    const generated = await note(visit);
    const story = sectionText(generated, 'history_of_present_illness');
    expect(story).toMatch(/lightheaded/i);
    expect(story).not.toMatch(/reports[^.]*lightheadedness/i);
    expect(story).not.toMatch(/reports[^.]*bloating/i);
  });
});

describe('the results section', () => {
  it('files a test still to be done as no result', async () => {
    // Written for this test.
    const visit = `[patient] My pediatrician wants to know if her kidneys are okay.
[doctor] The only way to know that is to do a kidney ultrasound.
[doctor] Let me put that into the system, and then downstairs they can do the ultrasound.
[doctor] Her last blood work came back normal.
[doctor] The nurse will give you instructions for the ultrasound.`;
    const generated = await note(visit);
    const results = sectionText(generated, 'results');
    expect(results).toMatch(/blood work[^.]*normal/i);
    expect(results).not.toMatch(/ultrasound/i);
  });
});

describe('the chief complaint', () => {
  it('takes the side the patient corrects it to', async () => {
    // Written for this test.
    const visit = `[doctor] i understand you've come in with some right knee pain can you tell me about it
[patient] it's not the right knee it's the left knee
[doctor] okay the left knee
[patient] it gives out on me when i walk`;
    const generated = await note(visit);
    expect(sectionText(generated, 'chief_complaint')).toBe('Left knee pain.');
    expect(sectionText(generated, 'review_of_systems')).not.toMatch(/right knee/i);
  });
});

describe('stutters', () => {
  it('reads a stutter written with a hyphen as the word, so no first person slips through', async () => {
    // Written for this test.
    const visit = `[doctor] How has the eating been?
[patient] Not great. I-I think I need to go clean for a couple of weeks.
[doctor] Okay. On exam, I-I do appreciate a 3/6 systolic ejection murmur.
[doctor] For your diabetes, y-you know, it is a little out of control, so I-I'd like to increase the metformin to 1000 mg twice a day.`;
    const generated = await note(visit);
    const text = generated.sections.flatMap((section) => section.sentences.map((sentence) => sentence.text)).join(' ');
    expect(text).not.toMatch(/\b(?:i-i|y-you|i-i'd)\b/i);
    expect(sectionText(generated, 'physical_exam')).toMatch(/3\/6 systolic ejection murmur/);
    expect(sectionText(generated, 'plan')).toMatch(/metformin/i);
  });
});
