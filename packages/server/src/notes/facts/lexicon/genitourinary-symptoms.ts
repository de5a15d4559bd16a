/**
 * Genitourinary symptoms of the symptom lexicon (symptoms.ts), kept apart for its length: voiding
 * complaints as patients say them ("trouble urinating", "my stream is weak") each with its chart word.
 */
import { symptomEntry as entry, type SymptomEntry } from './symptom-entry.js';

export const GENITOURINARY_SYMPTOMS: readonly SymptomEntry[] = [
  entry(
    'dysuria',
    'Genitourinary',
    'painful urination',
    'pain with urination',
    'burning with urination',
    'burning when i urinate',
    'burning when i pee',
    'burning when you urinate',
    'burning when you pee',
    'hurts to pee',
    'burns when i pee',
  ),
  entry(
    'urinary frequency',
    'Genitourinary',
    'frequent urination',
    'urinating frequently',
    'peeing a lot',
    'going to the bathroom a lot',
    'urinating more often',
  ),
  entry('urinary urgency', 'Genitourinary', 'urgency'),
  entry(
    'difficulty urinating',
    'Genitourinary',
    'difficulty urinating',
    'difficulty with urination',
    'trouble urinating',
    'trouble peeing',
    'hard to urinate',
    'hard to pee',
    'hesitancy',
    'not peeing right',
  ),
  entry(
    'weak urinary stream',
    'Genitourinary',
    'weak stream',
    'stream is weak',
    'stream weak',
    'weak urine stream',
    'slow stream',
    'stream is slow',
  ),
  entry(
    'incomplete bladder emptying',
    'Genitourinary',
    'not emptying my bladder',
    'not empty my bladder',
    'emptying your bladder fully',
    'emptying your bladder completely',
    'urine left',
  ),
  entry('hematuria', 'Genitourinary', 'blood in my urine', 'blood in the urine', 'blood in your urine', 'bloody urine'),
  entry('urinary incontinence', 'Genitourinary', 'incontinence', 'leaking urine', 'accidents'),
  entry(
    'nocturia',
    'Genitourinary',
    'up at night to urinate',
    'get up at night to pee',
    'getting up at night to urinate',
    'up at night to go to the bathroom',
    'waking up at night to go to the bathroom',
  ),
  entry('vaginal discharge', 'Genitourinary', 'discharge'),
];
