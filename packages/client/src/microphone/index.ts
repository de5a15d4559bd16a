export { MicrophoneError, MicrophonePermissionError, type MicrophoneErrorCode } from './errors.js';
export { MICROPHONE_AUDIO_FORMAT, startMicrophone, type Microphone, type MicrophoneOptions } from './microphone.js';
