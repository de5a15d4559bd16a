import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { NODE18 } from '../test-support/node18.js';
import { startTestServer, type TestServer } from '../test-support/server.js';
import { goforward, missingSpeechTools, PocketSphinxRecognizer, silence } from '@chartwright/testing/speech.js';

/**
 * The BUILT package's realtime client under Node 18 (see test-support/node18.ts), imported as ESM and required as CommonJS: Node 18 has no global WebSocket, so this is
 * the `ws` fallback, against the real service and recognizer. `npm test` builds dist first.
 */
const missing = await missingSpeechTools();
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = join(packageDir, 'compat', 'node18-realtime.mjs');

describe.skipIf(missing.length > 0)('realtime client on Node 18 (built package, ws fallback)', () => {
  let recognizer: PocketSphinxRecognizer;
  let server: TestServer;
  let scratch: string;
  let audioFile: string;

  beforeAll(async () => {
    recognizer = new PocketSphinxRecognizer({ workers: 1 });
    server = await startTestServer({ recognizer });
    scratch = mkdtempSync(join(tmpdir(), 'chartwright-node18-'));
    audioFile = join(scratch, 'speech.raw');
    writeFileSync(audioFile, Buffer.concat([goforward(), silence(1000)]));
  }, 120_000);
  afterAll(async () => {
    await server.close();
    await recognizer.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it.each(['esm', 'cjs'])(
    'transcribes speech through the %s build',
    async (format) => {
      const { stdout } = await promisify(execFile)(
        NODE18,
        [script, format, server.baseUrl, server.harness.project.testKey, audioFile],
        { cwd: packageDir },
      );
      const result = JSON.parse(stdout) as Record<string, unknown>;
      expect(result).toMatchObject({
        node: expect.stringMatching(/^v18\./),
        globalWebSocket: 'undefined',
        isRealtimeSession: true,
        finals: ['go forward ten meters'],
        ended: { reason: 'stopped', segments: 1 },
      });
    },
    60_000,
  );
});
