import type { NoteWarning, Omission, ReviewFlag } from '@chartwright/protocol';

/*
 * What the service says the clinician should check in a note (its warnings, omission report and
 * review flags): shown beside the note, never part of the text sent to the chart.
 */

const OMISSION_KINDS: Readonly<Record<Omission['kind'], string>> = {
  problem: 'Symptom or problem',
  medication: 'Medication',
  allergy: 'Allergy',
  history: 'History',
  ros: 'Review of systems',
  vital: 'Vital sign',
  exam: 'Examination',
  result: 'Result',
  assessment: 'Assessment',
  plan: 'Plan',
  narrative: 'History detail',
};

const percent = (confidence: number) => `${Math.round(confidence * 100)}%`;

/** `sentence` with each of `words` marked as uncertain (whole words, case-insensitive). */
export function MarkedSentence({ sentence, words }: { sentence: string; words: readonly string[] }) {
  const wanted = new Set(words.map((word) => word.toLowerCase()));
  const parts = sentence.split(/(\p{L}[\p{L}\p{N}'’-]*|\p{N}+(?:[.,]\p{N}+)?)/u);
  return (
    <q class="flag-sentence">
      {parts.map((part, index) =>
        index % 2 === 1 && wanted.has(part.toLowerCase()) ? (
          <mark key={index} class="uncertain">
            {part}
          </mark>
        ) : (
          part
        ),
      )}
    </q>
  );
}

/** One flag: what to check, the sentence it concerns (as written) with its uncertain words marked. */
export function FlagItem({ flag, sentence }: { flag: ReviewFlag; sentence: string | null }) {
  const words = flag.words.map((word) => word.word);
  return (
    <li class={`flag flag-${flag.code === 'low_confidence_word' ? 'uncertain' : 'verifier'}`}>
      <span class="flag-message">{flag.message}</span>
      {sentence !== null && <MarkedSentence sentence={sentence} words={words} />}
      {flag.words.length > 0 && (
        <span class="flag-words">
          {' '}
          Uncertain:{' '}
          {flag.words.map((word, index) => (
            <span key={index}>
              {index > 0 && ', '}
              <mark class="uncertain">{word.word}</mark> ({percent(word.confidence)} sure)
            </span>
          ))}
        </span>
      )}
    </li>
  );
}

/** The note's warnings: why it may be poor (input not in English, no clinical content, uncertain words). */
export function NoteWarnings({ warnings }: { warnings: readonly NoteWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <section class="callout callout-warning note-warnings" aria-labelledby="note-warnings-title">
      <h3 id="note-warnings-title">Warnings</h3>
      <ul>
        {warnings.map((warning) => (
          <li key={warning.code}>{warning.message}</li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Beside the note: what it may be missing (the omission report) and the flags no section claims.
 * Flags of a section are shown under that section. Nothing to report from a note nothing checked
 * (`checked` false): no aside, rather than an "all clear" nobody gave.
 */
export function ReviewAside({
  checked,
  omissions,
  flags,
}: {
  checked: boolean;
  omissions: readonly Omission[];
  flags: readonly ReviewFlag[];
}) {
  if (!checked && omissions.length === 0 && flags.length === 0) return null;
  return (
    <aside class="note-review" aria-labelledby="note-review-title">
      <h3 id="note-review-title">Check before sending</h3>
      <section aria-labelledby="omissions-title">
        <h4 id="omissions-title">Possibly missing from the note</h4>
        {omissions.length === 0 ? (
          <p class="muted">Nothing found missing.</p>
        ) : (
          <ul class="omissions">
            {omissions.map((omission) => (
              <li key={omission.fact}>
                <span class="omission-kind">{OMISSION_KINDS[omission.kind]}:</span> {omission.text}
              </li>
            ))}
          </ul>
        )}
      </section>
      {flags.length > 0 && (
        <section aria-labelledby="general-flags-title">
          <h4 id="general-flags-title">Other flags</h4>
          <ul class="flags">
            {flags.map((flag, index) => (
              <FlagItem key={index} flag={flag} sentence={null} />
            ))}
          </ul>
        </section>
      )}
    </aside>
  );
}
