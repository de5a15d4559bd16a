import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Generated model data ships in packages/server/models/, described by its manifest.json. src/ and
 * dist/ sit at the same depth, so one relative URL finds it from the tests and from the service.
 */
const MODELS_DIRECTORY = fileURLToPath(new URL('../models/', import.meta.url));

export function modelPath(...segments: string[]): string {
  return join(MODELS_DIRECTORY, ...segments);
}
