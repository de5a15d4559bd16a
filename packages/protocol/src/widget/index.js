export * from './appointment.js';
export * from './emr-messages.js';
export * from './errors.js';
export * from './limits.js';
export * from './medical-context.js';
export * from './note-config.js';
export * from './patient.js';
export * from './person-name.js';
export * from './validate-message.js';
export * from './widget-messages.js';
//# sourceMappingURL=index.js.map
