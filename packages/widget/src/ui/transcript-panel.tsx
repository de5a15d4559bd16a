import { TRANSCRIPT_SPEAKERS, type TranscriptSegment, type TranscriptSpeaker } from '@chartwright/protocol';
import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

import type { LineCorrection } from '../controller/transcript-controller.js';
import type { TranscriptLine } from '../controller/widget-state.js';
import { shownTokens } from './transcript-tokens.js';

const ROLES: Record<TranscriptSegment['speaker'], string> = {
  clinician: 'Clinician',
  patient: 'Patient',
  unknown: 'Unknown speaker',
};

const percent = (confidence: number) => `${Math.round(confidence * 100)}%`;

export interface TranscriptActions {
  /** Resolves whether the correction was saved. */
  correct: (lineId: string, correction: LineCorrection) => Promise<boolean>;
  swap: (lineId: string) => void;
}

/**
 * Finals in a polite live region, each with its speaker and its display text (the words the
 * recognizer was unsure of marked); the utterance in progress beside it, marked provisional and
 * not announced. The clinician swaps who is the clinician with one click on a speaker, and corrects
 * a line's words, or who said that one line, in place.
 */
export function TranscriptPanel({
  lines,
  partial,
  busy,
  actions,
}: {
  lines: readonly TranscriptLine[];
  partial: string;
  busy: boolean;
  actions: TranscriptActions;
}) {
  return (
    <section class="panel transcript" aria-labelledby="transcript-title">
      <h2 id="transcript-title">Transcript</h2>
      <div class="transcript-body">
        <ol class="transcript-lines" role="log" aria-live="polite" aria-relevant="additions" aria-label="Transcript">
          {lines.map((line) => (
            <TranscriptItem key={line.id} line={line} busy={busy} actions={actions} />
          ))}
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

function TranscriptItem({ line, busy, actions }: { line: TranscriptLine; busy: boolean; actions: TranscriptActions }) {
  const [draft, setDraft] = useState<LineCorrection | null>(null);
  const { segment } = line;
  const textId = `line-${line.id.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  return (
    <li class="transcript-line">
      <SpeakerChip segment={segment} busy={busy} onSwap={() => actions.swap(line.id)} />
      {draft === null ? (
        <>
          <span id={textId} class="transcript-text">
            <DisplayText segment={segment} />
          </span>
          <Correction segment={segment} />
          <button
            type="button"
            class="button button-small transcript-correct"
            aria-describedby={textId}
            disabled={busy}
            onClick={() => setDraft({ text: segment.text, speaker: segment.speaker })}
          >
            Correct
          </button>
        </>
      ) : (
        <CorrectionEditor
          draft={draft}
          busy={busy}
          onDraft={setDraft}
          onCancel={() => setDraft(null)}
          onSave={async () => {
            if (await actions.correct(line.id, draft)) setDraft(null);
          }}
        />
      )}
    </li>
  );
}

/** Who said it: the role and the voice's label. A labelled clinician or patient swaps roles with the other on a click. */
function SpeakerChip({ segment, busy, onSwap }: { segment: TranscriptSegment; busy: boolean; onSwap: () => void }) {
  const { speaker, speakerLabel } = segment;
  if (speakerLabel === undefined && speaker === 'unknown') return null;
  const name = speakerLabel === undefined ? ROLES[speaker] : `${ROLES[speaker]} · ${speakerLabel}`;
  if (speakerLabel === undefined || speaker === 'unknown') return <span class="speaker-chip">{name}</span>;
  const other = speaker === 'clinician' ? 'patient' : 'clinician';
  return (
    <button
      type="button"
      class="speaker-chip speaker-chip-swap"
      disabled={busy}
      aria-label={`${name}: swap roles, making ${speakerLabel} the ${other}`}
      title={`Swap roles: ${speakerLabel} becomes the ${other} for the whole recording`}
      onClick={onSwap}
    >
      {name}
    </button>
  );
}

function DisplayText({ segment }: { segment: TranscriptSegment }) {
  return (
    <>
      {shownTokens(segment).map((token, index) => (
        <Fragment key={index}>
          {index > 0 && ' '}
          {token.unsure === null ? (
            token.text
          ) : (
            <mark class="uncertain" title={`The recognizer was ${percent(token.unsure)} sure of this`}>
              {token.text}
              <span class="visually-hidden"> (unsure, {percent(token.unsure)})</span>
            </mark>
          )}
        </Fragment>
      ))}
    </>
  );
}

/** That the clinician corrected the line, and what the recognizer heard. */
function Correction({ segment }: { segment: TranscriptSegment }) {
  const { original } = segment;
  if (original === undefined) return null;
  const textChanged = original.text !== segment.text;
  return (
    <span class="corrected">
      {textChanged ? `Corrected; heard “${original.text}”` : `Speaker corrected; heard as ${ROLES[original.speaker]}`}
    </span>
  );
}

function CorrectionEditor({
  draft,
  busy,
  onDraft,
  onCancel,
  onSave,
}: {
  draft: LineCorrection;
  busy: boolean;
  onDraft: (draft: LineCorrection) => void;
  onCancel: () => void;
  onSave: () => Promise<void>;
}) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <form
      class="transcript-correction"
      aria-label="Correct the line"
      onSubmit={(event) => {
        event.preventDefault();
        void onSave();
      }}
    >
      <label class="field">
        <span>What was said</span>
        <input
          ref={input}
          type="text"
          maxLength={5000}
          value={draft.text}
          onInput={(event) => onDraft({ ...draft, text: event.currentTarget.value })}
          onKeyDown={(event) => {
            if (event.key === 'Escape') onCancel();
          }}
        />
      </label>
      <SpeakerSelect
        speaker={draft.speaker}
        onSpeaker={(speaker) => onDraft({ ...draft, speaker })}
        onCancel={onCancel}
      />
      <div class="buttons">
        <button type="submit" class="button button-primary button-small" disabled={busy || draft.text.trim() === ''}>
          Save correction
        </button>
        <button type="button" class="button button-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Who said this one line; the chip's swap is for the whole voice. */
function SpeakerSelect({
  speaker,
  onSpeaker,
  onCancel,
}: {
  speaker: TranscriptSpeaker;
  onSpeaker: (speaker: TranscriptSpeaker) => void;
  onCancel: () => void;
}) {
  return (
    <label class="field">
      <span>Who said it</span>
      <select
        value={speaker}
        onChange={(event) => onSpeaker(event.currentTarget.value as TranscriptSpeaker)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
        }}
      >
        {TRANSCRIPT_SPEAKERS.map((option) => (
          <option key={option} value={option}>
            {ROLES[option]}
          </option>
        ))}
      </select>
    </label>
  );
}
