import { fileURLToPath } from 'node:url';

/**
 * The path of a compiled module beside the caller (`import.meta.url`), for a process or thread to
 * start: run from the sources (tests), its build in dist/, since Node cannot start a .ts file.
 */
export function compiledModulePath(callerUrl: string, file: string): string {
  const here = new URL(callerUrl);
  const path = fileURLToPath(new URL(file, here));
  // The package's own src/ is the last one in the path (a checkout may sit under another src/).
  return here.pathname.endsWith('.ts') ? path.replace(/\/src\/(?!.*\/src\/)/, '/dist/') : path;
}
