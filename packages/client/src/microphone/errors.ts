import { ChartwrightError } from '../errors.js';

export type MicrophoneErrorCode =
  /** The page has no `getUserMedia`/`AudioWorklet` (not a browser, or not a secure context: https or localhost). */
  | 'microphone_unsupported'
  /** No microphone matches the request. */
  | 'microphone_not_found'
  /** The device exists but could not be opened (another application holds it, a hardware fault). */
  | 'microphone_unavailable'
  /** The microphone was unplugged or disabled while recording. */
  | 'microphone_ended'
  /** The session does not take what the helper produces: 16 kHz, 16-bit, mono PCM. */
  | 'unsupported_session_format';

/** The microphone could not be started, or stopped working. */
export class MicrophoneError extends ChartwrightError {
  // Spelled out: minified bundles rename classes.
  override readonly name: string = 'MicrophoneError';
  override readonly code: MicrophoneErrorCode | 'microphone_permission_denied';

  constructor(
    message: string,
    code: MicrophoneErrorCode | 'microphone_permission_denied',
    options?: { cause?: unknown },
  ) {
    super(message, code, options);
    this.code = code;
  }
}

/** The user (or the browser's policy) refused access to the microphone. */
export class MicrophonePermissionError extends MicrophoneError {
  override readonly name: string = 'MicrophonePermissionError';
  constructor(options?: { cause?: unknown }) {
    super(
      'Access to the microphone was denied. Ask the user to allow it (the site settings next to the address bar) and try again.',
      'microphone_permission_denied',
      options,
    );
  }
}

/** Maps a `getUserMedia` rejection (a DOMException by name) to a typed error. */
export function microphoneErrorOf(error: unknown): MicrophoneError {
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return new MicrophonePermissionError({ cause: error });
    case 'NotFoundError':
    case 'OverconstrainedError':
      return new MicrophoneError('No microphone was found that matches the request.', 'microphone_not_found', {
        cause: error,
      });
    default:
      return new MicrophoneError(
        'The microphone could not be opened (another application may be using it).',
        'microphone_unavailable',
        { cause: error },
      );
  }
}
