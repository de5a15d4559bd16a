export { OpenAiRecognizer, type OpenAiRecognizerOptions } from './engine.js';
