import type { Template } from '@chartwright/protocol';
import { describe, expect, it } from 'vitest';

import type { GeneratedNote, GenerationInput, NoteContext } from '../../generator.js';
import { parseConversation } from '../../../text/parse-conversation.js';
import { renderNote } from '../../render.js';
import { resolveTemplate } from '../../template-resolution.js';
import { CURATED_TEMPLATES } from '../../templates.js';

import { extractiveGenerator } from './index.js';
import { FRAMING_WORDS } from './lexicons.js';
import { numbersIn } from '../../../text/spoken-numbers.js';
import { STOPWORDS, stem } from './text.js';

// Synthetic visits written for these tests (no data set text): ASR style (lower case, spaced
// punctuation), dictation prose with prefixes, unpunctuated running speech, and unlabeled prose.
const BACK_PAIN = `[doctor] hi , mrs. lane . how are you today ?
[patient] i'm okay . um , my back has been hurting for two weeks .
[doctor] i'm sorry to hear that . did you have a nice weekend ?
[patient] yeah , we went to the lake .
[doctor] nice . so , tell me about the back pain .
[patient] it's , uh , it's a sharp pain in my lower back . it gets worse when i bend over . i have been taking ibuprofen four hundred milligrams twice a day .
[doctor] any numbness or tingling in your legs ?
[patient] no .
[doctor] any fever or chills ?
[patient] nope .
[doctor] are you allergic to any medications ?
[patient] i'm allergic to penicillin , it gives me hives .
[doctor] do you smoke ?
[patient] no , never .
[doctor] okay . let's do a quick physical exam . your blood pressure is one twenty over eighty . on exam of your lower back , there is tenderness to palpation over the lumbar paraspinal muscles . straight leg raise is negative .
[doctor] i reviewed the x-ray of your lumbar spine , it showed no fracture .
[doctor] so my assessment is that you have a lumbar strain . i want you to continue the ibuprofen and start physical therapy . i'll see you back in four weeks .
[patient] okay , thank you .`;

const COUGH = `Dr. Patel: Good morning, Mr. Green. What brings you in today?
Patient: I have had a cough for ten days, you know, and it's worse at night.
Dr. Patel: Any chest pain?
Patient: I don't have any chest pain.
Dr. Patel: Any shortness of breath?
Patient: Yes, a little when I climb stairs.
Dr. Patel: What medications do you take?
Patient: I take lisinopril 10 mg daily and metformin 500 mg b.i.d. for my diabetes.
Dr. Patel: Does anyone in your family have lung disease?
Patient: My father had asthma.
Dr. Patel: Let me examine you. Your temperature is 99.1 and your oxygen saturation is 97%. On lung exam there are scattered wheezes bilaterally. No crackles.
Dr. Patel: This is most likely acute bronchitis. I am going to prescribe an albuterol inhaler, 2 puffs every 4 hours as needed. Come back in 2 weeks if the cough is not better.
Patient: Thank you, doctor.`;

const RUNNING_SPEECH = `[doctor] so tell me what happened to your ankle
[patient] yeah so i slipped on the ice yesterday and twisted my right ankle and it swelled up right away
[doctor] okay did you hear a pop
[patient] no
[doctor] okay alright well let's take a look so on exam of your right ankle there is swelling over the lateral malleolus and tenderness to palpation of the anterior talofibular ligament i do not appreciate any bony tenderness now your x-ray showed no fracture so for your first problem of right ankle pain this is consistent with a right ankle sprain i want you to keep it elevated and ice it three times a day and i'm gon na give you an air cast and i'll see you in two weeks
[patient] sounds good`;

const PROSE = `The patient is a 62-year-old man with a history of hypertension.

He reports dizziness for three days when standing up quickly. He denies chest pain.

Blood pressure today is 150/90.`;

// A follow-up visit where the clinician narrates, examines late, and states orders in the first
// person: what a note must not read like.
const CHEST_FOLLOW_UP = `[doctor] hey dax , start the recording .
[doctor] hi , mr. reed . it's been a while since i saw you .
[patient] yeah , it has . my breathing has been worse when i walk up stairs .
[doctor] i know that you had a prior lobectomy on the left side .
[patient] yes , about five years ago .
[doctor] okay . i'm just going to listen to your heart and lungs and check you out .
[doctor] we will look at your blood pressure too .
[doctor] let's talk about my assessment and my plan for you .
[doctor] for your last problem , your hypertension .
[doctor] i think you do have a little bit of congestion in your lungs .
[doctor] oh , and your heart , i hear a 2/6 systolic ejection murmur at the left sternal border .
[doctor] i do want to order just , an echocardiogram for that murmur .
[doctor] with your current strategy .
[doctor] we'll continue you on your lisinopril twenty milligrams daily .
[patient] okay .`;

const FIXTURES = { BACK_PAIN, COUGH, RUNNING_SPEECH, PROSE, CHEST_FOLLOW_UP };

function template(id: string): Template {
  const found = CURATED_TEMPLATES.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no template ${id}`);
  return found;
}

async function generate(text: string, templateId = 'history_and_physical', context: NoteContext = {}) {
  const input: GenerationInput = { template: template(templateId), conversation: parseConversation(text), context };
  return extractiveGenerator.generate(input);
}

const sentencesOf = (note: GeneratedNote, key?: string) =>
  note.sections.filter((section) => key === undefined || section.key === key).flatMap((section) => section.sentences);
const textOf = (note: GeneratedNote, key?: string) =>
  sentencesOf(note, key)
    .map((sentence) => sentence.text)
    .join('\n');

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+(?:\.[0-9]+)?/g) ?? [];

/**
 * Faithfulness as the acceptance criterion states it: every content word and every number of an
 * output sentence appears in the input. Function words and the note-style frame (FRAMING_WORDS:
 * "denies", "she", "mg" …) are not content; spoken numbers count as their digits; inflections
 * ("swallows" for "swallow") count as the same word.
 */
/**
 * The words the note writer frames facts with (headings inside a section, "presents with",
 * "advised to", units, review-of-systems systems) and the chart names it gives what was said
 * ("shortness of breath" for "can't catch my breath", "tobacco use" for smoking): not content the
 * visit must contain. Whether the chart name is right is the fact suite's business
 * (notes/facts/extraction.test.ts).
 */
const NOTE_FRAME: ReadonlySet<string> = new Set(
  (
    'chief complaint presents history surgical medications allergies advised suspect started stopped ' +
    'today twice daily mmhg f tobacco use shortness injury constitutional respiratory cardiovascular ' +
    'musculoskeletal neurological'
  ).split(' '),
);

function unsupported(sentence: string, source: string): string[] {
  const sourceWords = words(source);
  const known = new Set([...sourceWords, ...sourceWords.map(stem)]);
  const numbers = new Set([...numbersIn(source.toLowerCase().split(/\s+/)), ...(source.match(/\d+(?:\.\d+)?/g) ?? [])]);
  return words(sentence).filter((word) => {
    if (/^\d/.test(word)) return !numbers.has(word);
    if (STOPWORDS.has(word) || FRAMING_WORDS.has(word) || NOTE_FRAME.has(word)) return false;
    return !known.has(word) && !known.has(stem(word));
  });
}

describe('extractive engine', () => {
  it('names itself', () => {
    expect(extractiveGenerator.engine).toEqual({ name: 'extractive', version: '2.0.0' });
  });

  it('turns a "no" to a symptom question into a denial, citing question and answer', async () => {
    const note = await generate(BACK_PAIN);
    const denial = sentencesOf(note, 'review_of_systems').find((sentence) =>
      sentence.text.includes('Denies leg numbness or leg tingling.'),
    );
    expect(denial?.evidence.turns).toEqual(expect.arrayContaining([6, 7]));
    expect(textOf(note, 'review_of_systems')).toContain('Denies fever or chills.');
    expect(textOf(note, 'social_history')).toBe('Denies tobacco use.');
    // A "no" to "… in your legs?" denies what was asked; it does not make it bilateral.
    expect(textOf(note)).not.toMatch(/bilateral leg/);
  });

  it("keeps the patient's own negations as denials", async () => {
    const note = await generate(COUGH);
    expect(textOf(note)).toContain('Denies chest pain.');
    expect(textOf(note)).not.toMatch(/\bhas (?:any )?chest pain/i);
  });

  it('rewrites speech in the third person, with the pronoun the visit supports', async () => {
    const female = textOf(await generate(BACK_PAIN));
    expect(female).toContain('Her back has been hurting for 2 weeks.');
    expect(female).toContain('It gets worse when she bends over.');
    // No first or second person is left, not even the clinician's "my assessment is …".
    expect(female).not.toMatch(/\b(?:I|me|my|you|your)\b/i);
    expect(female).toContain('Lumbar strain.');
    const male = textOf(await generate(COUGH));
    expect(male).toContain('He has had a cough for 10 days, and it is worse at night.');
    // No gender said: "the patient", then "they" — never a guessed she or he.
    const unknown = textOf(await generate(RUNNING_SPEECH));
    expect(unknown).toMatch(/The patient slipped on the ice yesterday and twisted their right ankle/);
    expect(unknown).not.toMatch(/\b(?:she|he|her|his|him)\b/i);
  });

  it('drops filler and small talk', async () => {
    const text = textOf(await generate(BACK_PAIN, 'soap'));
    expect(text).not.toMatch(/\b(?:um|uh|you know|okay|weekend|lake|thank|how are you)\b/i);
    expect(textOf(await generate(COUGH))).not.toMatch(/\b(?:you know|good morning|thank)\b/i);
  });

  it('writes no comma where a filler was said inside a phrase, in the history, the exam and the results', async () => {
    const note = await generate(
      [
        '[doctor] what happened to your knee ?',
        "[patient] i was , um , trying to change a light bulb and i twisted it . i've , uh , been taking ibuprofen .",
        '[patient] the knee pain has been getting worse since friday .',
        '[doctor] on exam there is no , uh , swelling of the knee . there is , um , some tenderness over the medial joint line .',
        '[doctor] looking at the x-ray there is no , um , fracture . no , there is a little bit of , uh , fluid .',
      ].join('\n'),
    );
    const text = textOf(note);
    expect(text).toMatch(/was trying to change a light bulb/i);
    expect(text).toMatch(/has been taking ibuprofen/i);
    expect(text).toMatch(/no swelling of the knee/i);
    expect(text).toMatch(/no fracture/i);
    expect(text).toMatch(/a little bit of fluid/i);
    // An answer's "no" before a clause keeps its comma: "no there is …" would read as one denial.
    expect(text).not.toMatch(/\bno there\b/i);
    expect(text).not.toMatch(/\b(?:was|is|of|some|has|have|been), |\bno, (?!there)/i);
  });

  it('writes each exam finding once, under its system, with no lead-in or bare organ as a finding', async () => {
    const note = await generate(
      [
        '[doctor] hi mr. jones , he is a 50 year old male here for a cough .',
        '[patient] yes .',
        '[doctor] let us do a quick physical exam . your heart is nice and regular . your lungs are clear . on the x-ray and your exam , you have some crackles at the left base .',
        '[patient] okay .',
      ].join('\n'),
    );
    expect(textOf(note, 'physical_exam').split('\n')).toEqual([
      'Cardiovascular: Heart is nice and regular.',
      'Respiratory: Lungs are clear.',
      'Respiratory: He has some crackles at the left base.',
    ]);
  });

  it('writes a sentence said twice once, citing both times it was said', async () => {
    const note = await generate(
      [
        '[doctor] what brings you in',
        '[patient] my knee hurts after i fell',
        '[doctor] okay . for your knee pain i want you to ice it three times a day .',
        '[patient] how often ?',
        '[doctor] i want you to ice it three times a day .',
        '[patient] got it .',
      ].join('\n'),
    );
    const plan = sentencesOf(note, 'plan');
    expect(plan.map((sentence) => sentence.text)).toEqual(['Advised to ice it 3 times a day.']);
    expect(plan[0]?.evidence.turns).toEqual(expect.arrayContaining([2, 4]));
  });

  it('keeps numbers and doses exactly, spoken ones as digits', async () => {
    const cough = textOf(await generate(COUGH));
    for (const dose of [
      'Lisinopril 10 mg daily.',
      'Metformin 500 mg twice daily.',
      'Temperature: 99.1°F',
      'Oxygen saturation: 97%',
      'Albuterol 2 puffs every 4 hours as needed, started today.',
      '2 weeks',
    ]) {
      expect(cough).toContain(dose);
    }
    const back = textOf(await generate(BACK_PAIN));
    expect(back).toContain('Blood pressure: 120/80 mmHg.');
    expect(back).toContain('Ibuprofen 400 mg twice daily.');
    expect(back).toContain('4 weeks');
  });

  it('dates a medication change to the visit only when the clinician made it; one the patient tells of is theirs', async () => {
    const text = textOf(
      await generate(`Doctor: Do you take anything for the headaches?
Patient: I tried Tylenol a few times but it didn't work, so I stopped.
Doctor: Okay. Let's start sumatriptan 50 mg at the onset of a headache.`),
    );
    expect(text).toContain('Acetaminophen, stopped by the patient.');
    expect(text).not.toMatch(/acetaminophen, stopped today/i);
    expect(text).toMatch(/Sumatriptan 50 mg[^.\n]*, started today\./);
    // The patient names the drug first; the clinician's prescription of it is still today's.
    const prescribed = textOf(
      await generate(`Doctor: Are you taking anything for it?
Patient: Just some ibuprofen for the swelling.
Doctor: Okay. I'm going to prescribe you ibuprofen 800 milligrams, and you can take that twice a day.`),
    );
    expect(prescribed).toMatch(/Ibuprofen 800 mg[^.\n]*, started today\./);
    expect(prescribed).not.toMatch(/by the patient/);
  });

  it('puts a SOAP visit in the right sections', async () => {
    const note = await generate(BACK_PAIN, 'soap');
    expect(note.sections.map((section) => section.key)).toEqual(['subjective', 'objective', 'assessment', 'plan']);
    expect(textOf(note, 'subjective')).toMatch(/^Chief complaint: lower back pain\.$/m);
    expect(textOf(note, 'subjective')).toContain('Her back has been hurting for 2 weeks.');
    expect(textOf(note, 'subjective')).toContain('Medications: Ibuprofen 400 mg twice daily.');
    expect(textOf(note, 'subjective')).toContain('Allergies: Penicillin (hives).');
    expect(textOf(note, 'objective')).toContain('Blood pressure: 120/80 mmHg.');
    expect(textOf(note, 'objective')).toContain(
      'Musculoskeletal: Tenderness to palpation over the lumbar paraspinal muscles.',
    );
    expect(textOf(note, 'objective')).toContain('X-ray showed no fracture.');
    expect(textOf(note, 'assessment')).toBe('Lumbar strain.');
    expect(textOf(note, 'plan')).toContain('Advised to continue the ibuprofen and start physical therapy.');
    expect(textOf(note, 'plan')).toContain('See her back in 4 weeks.');
  });

  it('puts a history and physical in the right sections', async () => {
    const note = await generate(COUGH);
    expect(textOf(note, 'chief_complaint')).toBe('Cough and shortness of breath.');
    expect(textOf(note, 'medications')).toContain('Lisinopril 10 mg daily.');
    expect(textOf(note, 'family_history')).toBe('Father with asthma.');
    expect(textOf(note, 'physical_exam')).toContain('Respiratory: Scattered wheezes bilaterally.');
    expect(textOf(note, 'assessment')).toContain('acute bronchitis');
    expect(textOf(note, 'plan')).toContain('albuterol inhaler');
    const running = await generate(RUNNING_SPEECH);
    expect(textOf(running, 'physical_exam')).toContain('Right ankle exam: swelling over the lateral malleolus');
    expect(textOf(running, 'results')).toContain('X-ray showed no fracture');
    expect(textOf(running, 'assessment')).toBe('Right ankle pain.\nConsistent with a right ankle sprain.');
    expect(textOf(running, 'plan')).toContain('ice it 3 times a day');
  });

  it('puts exam findings under the exam even when they are said during the plan', async () => {
    const soap = await generate(CHEST_FOLLOW_UP, 'soap');
    expect(textOf(soap, 'objective')).toMatch(/2\/6 systolic ejection murmur at the left sternal border/);
    expect(textOf(soap, 'plan')).not.toMatch(/murmur at the left sternal border/);
    const hp = await generate(CHEST_FOLLOW_UP);
    expect(textOf(hp, 'physical_exam')).toMatch(/2\/6 systolic ejection murmur/);
    expect(textOf(hp, 'plan')).toMatch(/echocardiogram/);
  });

  it('drops the narration of the visit and fragments without a predicate', async () => {
    const text = textOf(await generate(CHEST_FOLLOW_UP, 'soap'));
    expect(text).not.toMatch(/listen to|check (?:him|you) out|look at his blood pressure|talk about|a while since/i);
    expect(text).not.toMatch(/\bdax\b|\bI know\b/i);
    expect(text).not.toMatch(/^With (?:his|your) current strategy/m);
    expect(text).not.toMatch(/^For his last problem/m);
    // What was scaffolding around content keeps the content.
    expect(text).toContain('He had a prior lobectomy on the left side.');
  });

  it('writes orders, findings and problems in note style, with words that were said', async () => {
    const note = await generate(CHEST_FOLLOW_UP, 'soap');
    const text = textOf(note);
    expect(text).toContain('Order an echocardiogram for that murmur.');
    expect(text).toContain('Continue his lisinopril 20 mg daily.');
    expect(text).toMatch(/^Suspect he has a little bit of congestion in his lungs\.$/m);
    expect(text).not.toMatch(/\bI (?:do )?want to\b|\bI think\b|\bI hear\b/);
    expect(textOf(note, 'assessment')).toContain('Hypertension.');
  });

  it('fills host headings it does not know by their wording', async () => {
    const { template: headings } = resolveTemplate([
      { key: 'reason', label: 'Reason for visit' },
      { key: 'social', label: 'Social' },
      { key: 'next', label: 'Next steps' },
      { key: 'trips', label: 'Lake trips' },
    ]);
    const note = await extractiveGenerator.generate({
      template: headings,
      conversation: parseConversation(BACK_PAIN),
      context: {},
    });
    expect(note.sections.map((section) => section.key)).toEqual(['reason', 'social', 'next', 'trips']);
    expect(textOf(note, 'reason')).toContain('Her back has been hurting for 2 weeks.');
    expect(textOf(note, 'social')).toBe('Denies tobacco use.');
    expect(textOf(note, 'next')).toContain('See her back in 4 weeks.');
    // Small talk about the weekend is not part of the visit's record, whatever the heading says.
    expect(textOf(note, 'trips')).toBe('');
  });

  it('cites the turns or context fields of every sentence, and only ones that exist', async () => {
    const context: NoteContext = {
      medical: {
        allergies: [{ name: 'Sulfa', reaction: 'rash' }],
        medications: [{ name: 'Atorvastatin', dosage: '20 mg', frequency: 'nightly' }],
        diagnoses: [{ name: 'Type 2 diabetes', code: 'E11.9', status: 'active' }],
      },
      extra: 'Patient uses a cane at home.',
    };
    for (const [name, text] of Object.entries(FIXTURES)) {
      for (const { id } of CURATED_TEMPLATES) {
        const conversation = parseConversation(text);
        const note = await extractiveGenerator.generate({ template: template(id), conversation, context });
        for (const sentence of sentencesOf(note)) {
          const cited = sentence.evidence.turns.length + sentence.evidence.context.length;
          expect(cited, `${name}/${id}: ${sentence.text}`).toBeGreaterThan(0);
          for (const turn of sentence.evidence.turns) expect(conversation.turns[turn]).toBeDefined();
          for (const path of sentence.evidence.context) expect(path).toMatch(/^(?:medical\.\w+(?:\[\d+\])?|extra)$/);
        }
      }
    }
  });

  it('says nothing the input does not: every content word and number of every sentence is in it', async () => {
    for (const [name, text] of Object.entries(FIXTURES)) {
      for (const { id } of CURATED_TEMPLATES) {
        const note = await generate(text, id);
        expect(sentencesOf(note).length, `${name}/${id}`).toBeGreaterThan(0);
        for (const sentence of sentencesOf(note))
          expect(unsupported(sentence.text, text), `${name}/${id}: ${sentence.text}`).toEqual([]);
      }
    }
  });

  it('adds no boilerplate: nothing about a symptom nobody mentioned', async () => {
    const note = renderNote((await generate(BACK_PAIN)).sections);
    expect(note).not.toMatch(/\b(?:nausea|vomiting|headache|chest pain|shortness of breath)\b/i);
  });

  it('is deterministic', async () => {
    for (const text of Object.values(FIXTURES)) {
      const first = JSON.stringify(await generate(text));
      expect(JSON.stringify(await generate(text))).toBe(first);
    }
  });

  it('states the context lists in their sections, citing the context path', async () => {
    const note = await generate(RUNNING_SPEECH, 'history_and_physical', {
      medical: {
        chiefComplaint: 'right ankle injury',
        allergies: [{ name: 'Penicillin', reaction: 'hives', severity: 'severe' }],
        medications: [
          { name: 'Atorvastatin', dosage: '20 mg', frequency: 'nightly' },
          { name: 'Warfarin', status: 'discontinued' },
        ],
        diagnoses: [{ name: 'Hypertension', code: 'I10' }],
        labResults: [{ name: 'HbA1c', value: '6.1', unit: '%', date: '2024-01-05' }],
      },
    });
    const cite = (key: string) => sentencesOf(note, key).map((sentence) => [sentence.text, sentence.evidence]);
    expect(cite('chief_complaint')).toEqual([
      ['Right ankle injury.', { turns: [], context: ['medical.chiefComplaint'] }],
    ]);
    expect(cite('allergies')).toEqual([
      ['Penicillin (hives, severe) (from chart).', { turns: [], context: ['medical.allergies[0]'] }],
    ]);
    // The chart's discontinued warfarin is not a current medication.
    expect(cite('medications')).toEqual([
      ['Atorvastatin 20 mg nightly (from chart).', { turns: [], context: ['medical.medications[0]'] }],
    ]);
    expect(cite('past_medical_history')).toEqual([
      ['History of hypertension (from chart).', { turns: [], context: ['medical.diagnoses[0]'] }],
    ]);
    expect(cite('results')[0]).toEqual([
      'HbA1c 6.1% (2024-01-05) (from chart).',
      { turns: [], context: ['medical.labResults[0]'] },
    ]);
    // Chart context is never pasted into the story of the present illness.
    const storyPaths = sentencesOf(note, 'history_of_present_illness').flatMap((sentence) => sentence.evidence.context);
    expect(storyPaths).not.toContain('medical.allergies[0]');
  });

  it('uses free-text extra context, citing it', async () => {
    const note = await generate(BACK_PAIN, 'soap', { extra: 'She walks two miles daily. Smokes half a pack per day.' });
    const fromExtra = sentencesOf(note).filter((sentence) => sentence.evidence.context.includes('extra'));
    expect(fromExtra.map((sentence) => sentence.text)).toContain('Tobacco use: half a pack per day.');
  });

  it('takes the pronoun from the patient context when given', async () => {
    const note = await generate(RUNNING_SPEECH, 'soap', { patient: { gender: 'female' } });
    expect(textOf(note)).toContain('She slipped on the ice yesterday and twisted her right ankle');
  });

  it('gives every section, empty, for an empty conversation', async () => {
    for (const { id, sections } of CURATED_TEMPLATES) {
      const note = await generate('', id);
      expect(note.sections.map((section) => [section.key, section.label, section.sentences])).toEqual(
        sections.map((section) => [section.key, section.label, []]),
      );
    }
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    const input = { template: template('soap'), conversation: parseConversation(BACK_PAIN), context: {} };
    await expect(extractiveGenerator.generate(input, { signal: controller.signal })).rejects.toThrow();
  });
});
