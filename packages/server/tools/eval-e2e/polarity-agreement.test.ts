import { describe, expect, it } from 'vitest';

import { polarityDisagreements } from './polarity-agreement.js';

// Note sentences written for this test.
describe('polarityDisagreements', () => {
  it('finds a statement the note from audio negates where the typed note does not, and the reverse', () => {
    expect(
      polarityDisagreements(
        ['Gastrointestinal: Endorses heartburn and abdominal pain.', 'Neck: Supraclavicular adenopathy.'],
        ['Gastrointestinal: Denies heartburn or abdominal pain.', 'Neck: No supraclavicular adenopathy.'],
      ),
    ).toEqual([
      {
        typed: 'Gastrointestinal: Denies heartburn or abdominal pain.',
        audio: 'Gastrointestinal: Endorses heartburn and abdominal pain.',
      },
      { typed: 'Neck: No supraclavicular adenopathy.', audio: 'Neck: Supraclavicular adenopathy.' },
    ]);
    expect(
      polarityDisagreements(["We don't need to make any adjustments."], ['We need to make any adjustments.']),
    ).toHaveLength(1);
  });

  it('counts nothing where both say the same, or where a sentence has no close counterpart', () => {
    expect(
      polarityDisagreements(
        ['Denies fever or chills.', 'The knee is swollen.'],
        ['Denies fever or chills.', 'The knee is swollen.', 'No history of kidney stones.'],
      ),
    ).toEqual([]);
    // Two findings of one system are not one statement because they share its label.
    expect(
      polarityDisagreements(
        ['Musculoskeletal: Some tenderness over the fingertip.'],
        ['Musculoskeletal: No tenderness over the knuckle.'],
      ),
    ).toEqual([]);
    // A short typed sentence inside a long one of the note from audio is not the same statement.
    expect(
      polarityDisagreements(
        ['She was told about the risk of anesthesia, including but not limited to bleeding and infection.'],
        ['Risk of anesthesia.'],
      ),
    ).toEqual([]);
  });
});
