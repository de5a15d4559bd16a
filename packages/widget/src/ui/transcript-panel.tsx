import type { TranscriptLine } from '../controller/widget-state.js';

const SPEAKERS: Record<TranscriptLine['speaker'], string | null> = {
  clinician: 'Clinician',
  patient: 'Patient',
  unknown: null,
};

/** Finals in a polite live region; the utterance in progress beside it, marked provisional and not announced. */
export function TranscriptPanel({ lines, partial }: { lines: readonly TranscriptLine[]; partial: string }) {
  return (
    <section class="panel transcript" aria-labelledby="transcript-title">
      <h2 id="transcript-title">Transcript</h2>
      <div class="transcript-body">
        <ol class="transcript-lines" role="log" aria-live="polite" aria-relevant="additions" aria-label="Transcript">
          {lines.map((line) => {
            const speaker = SPEAKERS[line.speaker];
            return (
              <li key={line.id}>
                {speaker !== null && <span class="speaker">{speaker}: </span>}
                {line.text}
              </li>
            );
          })}
        </ol>
        {partial !== '' && (
          <p class="partial" aria-live="off">
            <span class="visually-hidden">Provisional: </span>
            {partial}
          </p>
        )}
        {lines.length === 0 && partial === '' && <p class="muted">The transcript appears here as you record.</p>}
      </div>
    </section>
  );
}
