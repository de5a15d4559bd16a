import type { MicrophoneState } from '../controller/widget-state.js';

/** Why recording cannot work, and what fixes it, for each microphone problem. */
const EXPLANATIONS: Partial<Record<MicrophoneState, { title: string; text: string }>> = {
  blocked_by_embedder: {
    title: 'This page does not let the scribe use the microphone',
    text: 'The EMR embeds the scribe without microphone access (the iframe needs allow="microphone"). Ask your EMR administrator to enable it; the EMR has been told.',
  },
  denied: {
    title: 'Microphone access was denied',
    text: 'Allow the microphone for this site (the icon next to the address bar, or your browser’s site settings), then press Record again.',
  },
  unavailable: {
    title: 'No microphone could be used',
    text: 'Check that a microphone is connected and not in use by another application, then press Record again.',
  },
};

export function MicrophoneNotice({ state }: { state: MicrophoneState }) {
  const explanation = EXPLANATIONS[state];
  if (explanation === undefined) return null;
  return (
    <div class="callout callout-warning" role="alert">
      <p class="callout-title">{explanation.title}</p>
      <p>{explanation.text}</p>
    </div>
  );
}
