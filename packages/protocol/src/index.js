export * from './credentials.js';
export * from './errors.js';
export * from './limits.js';
export * from './paths.js';
export * from './validation.js';
export * from './rest/endpoints.js';
export * from './rest/health.js';
export * from './rest/notes.js';
export * from './rest/openapi.js';
export * from './rest/realtime-tokens.js';
export * from './rest/templates.js';
export * from './rest/widget-api.js';
export * from './widget/index.js';
//# sourceMappingURL=index.js.map
