export * from './constants.js';
export * from './errors.js';
export * from './messages.js';
export * from './parse-client-message.js';
