export * from './recognizer.js';
export { PocketSphinxRecognizer } from './pocketsphinx/index.js';
export { resampleLinear } from './resample.js';
export { parseWav, type WavAudio } from './wav.js';
