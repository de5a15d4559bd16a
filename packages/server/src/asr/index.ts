export * from './recognizer.js';
export { PocketSphinxRecognizer, INSTALL_COMMAND as POCKETSPHINX_INSTALL_COMMAND } from './pocketsphinx/index.js';
export { resampleLinear } from './resample.js';
export { parseWav, type WavAudio } from './wav.js';
