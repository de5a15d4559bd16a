import { useState } from 'preact/hooks';

export interface CopyButtonProps {
  text: string;
  /** The button's accessible name when "Copy" alone would be ambiguous. */
  label?: string;
  /** Without a clipboard (an insecure origin, permission refused): select the text for Ctrl+C instead. */
  selectText: () => void;
}

/** Copies `text` to the clipboard and says so, or says how to copy it by hand. */
export function CopyButton({ text, label, selectText }: CopyButtonProps) {
  const [outcome, setOutcome] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome('copied');
    } catch {
      selectText();
      setOutcome('failed');
    }
  };
  return (
    <span class="copy">
      <button
        type="button"
        class="button"
        onClick={() => void copy()}
        {...(label === undefined ? {} : { 'aria-label': label })}
      >
        Copy
      </button>
      <span class="status-line" role="status">
        {outcome === 'copied' ? 'Copied.' : outcome === 'failed' ? 'Selected: press Ctrl+C (⌘C) to copy.' : ''}
      </span>
    </span>
  );
}
