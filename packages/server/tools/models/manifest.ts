/**
 * models/manifest.json: every generated model the service ships, the command and builder that make
 * it, the data it was made from, and a checksum of each of its files. The builders record their
 * output here; a test checks the files still match (so none is edited by hand) and that rebuilding
 * gives the same bytes (so the data matches its builder).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { modelPath } from '@chartwright/server/internal/model-files.js';

export interface ModelSource {
  name: string;
  /** Under the data sets' folder (../shared/data), when the source is a file there. */
  file?: string;
  sha256: string;
}

export interface ModelEntry {
  /** What the service uses it for. */
  what: string;
  /** Folder under models/. */
  directory: string;
  build: string;
  builder: string;
  sources: ModelSource[];
  /** File name → SHA-256 of its bytes. */
  files: Record<string, string>;
}

export type ModelName = 'asr-cepstral-prior' | 'clinical-vocabulary' | 'notes-word-weights' | 'text-punctuation';

export const MANIFEST = modelPath('manifest.json');

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export function fileDigests(directory: string, files: readonly string[]): Record<string, string> {
  return Object.fromEntries(files.map((file) => [file, sha256(readFileSync(join(directory, file)))]));
}

export function readManifest(): Record<ModelName, ModelEntry> {
  return (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { models: Record<ModelName, ModelEntry> }).models;
}

/** Records a model the builder just wrote into the shipped models/ folder. */
export function recordModel(name: ModelName, entry: ModelEntry): void {
  const models = { ...readManifest(), [name]: entry };
  const sorted = Object.fromEntries(Object.entries(models).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(MANIFEST, `${JSON.stringify({ models: sorted }, null, 2)}\n`);
}
