export { PocketSphinxRecognizer } from './engine.js';
export { DEFAULT_OPTIONS, INSTALL_COMMAND, type PocketSphinxOptions } from './config.js';
