/**
 * The service as `npm start` runs it (the default recognizer and note engine from the default
 * configuration), in this process on a loopback port over a throwaway SQLite file, with a sandbox
 * key for the evaluation. Only what an evaluation cannot live with differs: no log output, no demo
 * seed, and limits raised so a run of many visits is never refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ApiKeyService } from '@chartwright/server/internal/auth/api-keys.js';
import { systemClock } from '@chartwright/server/internal/clock.js';
import { loadConfig } from '@chartwright/server/internal/config/config.js';
import { createLogger } from '@chartwright/server/internal/logger.js';
import { ProjectService } from '@chartwright/server/internal/projects/project-service.js';
import { assembleService } from '@chartwright/server/internal/server.js';
import { createRepositories } from '@chartwright/server/internal/store/repositories.js';

export interface EvaluatedService {
  origin: string;
  apiKey: string;
  /** Which recognizer and note engine answered, for the report. */
  recognizer: string;
  close(): Promise<void>;
}

export async function startService(env: Readonly<Record<string, string | undefined>>): Promise<EvaluatedService> {
  const directory = mkdtempSync(join(tmpdir(), 'chartwright-e2e-'));
  const config = loadConfig({
    ...env,
    DATABASE_URL: join(directory, 'e2e.db'),
    REDIS_URL: undefined,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    HOST: '127.0.0.1',
    PORT: '0',
    API_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const logger = createLogger(config.logLevel);
  const { app, runtime, recognizer } = await assembleService(config, logger);
  const repositories = createRepositories(runtime.database);
  const project = await new ProjectService(repositories, systemClock).create('eval:e2e');
  const { secret } = await new ApiKeyService(repositories, systemClock, config.keyRotationGraceSeconds).create({
    projectId: project.id,
    environment: 'test',
    name: 'eval-e2e',
  });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    origin,
    apiKey: secret,
    recognizer: recognizer.name,
    async close() {
      await app.close();
      await recognizer.close();
      await runtime.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
