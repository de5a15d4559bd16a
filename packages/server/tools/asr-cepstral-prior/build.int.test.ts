import { readFileSync } from 'node:fs';

import { CEPSTRAL_PRIOR_FILE } from '@chartwright/server/internal/asr/pocketsphinx/cepstral-prior.js';
import { missingSpeechTools } from '@chartwright/testing/speech.js';
import { describe, expect, it } from 'vitest';

import { readManifest, sha256 } from '../models/manifest.js';
import { missingDatasets, REAL_SPEECH_DIR, skipReason } from '../shared/datasets.js';
import { recordingMeans } from './measure.js';
import { cepstralPrior, formatCepstralPrior } from './prior.js';

const REFS = `${REAL_SPEECH_DIR}/refs.tsv`;
const missing = missingDatasets([REFS]);
const missingTools = await missingSpeechTools();

describe.skipIf(missing.length > 0 || missingTools.length > 0)(
  `the shipped cepstral prior${skipReason(missing)}`,
  () => {
    it('is what its builder makes from the recordings the manifest names', async () => {
      const entry = readManifest()['asr-cepstral-prior'];
      expect(entry.sources[0]?.sha256).toBe(sha256(readFileSync(REFS)));
      const built = formatCepstralPrior(cepstralPrior(await recordingMeans(REAL_SPEECH_DIR)));
      expect(built).toBe(readFileSync(CEPSTRAL_PRIOR_FILE, 'utf8'));
    }, 180_000);
  },
);
