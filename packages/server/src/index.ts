export { buildApp } from './app.js';
export type { AppDependencies } from './services.js';
export { loadConfig, testConfig, ConfigError, type Config } from './config/config.js';
export { createServer, type RunningServer } from './server.js';
export { runCli } from './cli/commands.js';
