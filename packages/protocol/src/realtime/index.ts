export * from './audio-frames.js';
export * from './constants.js';
export * from './errors.js';
export * from './messages.js';
export * from './outcomes.js';
export * from './parse-client-message.js';
export * from './segments.js';
