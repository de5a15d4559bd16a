import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * The build folder of one of the service's browser apps (`@chartwright/widget`, `@chartwright/console`):
 * found by package resolution, so a checkout serves packages/<app>/dist and an install from npm
 * serves the app package installed beside the server.
 */
export function appBuildDirectory(app: '@chartwright/widget' | '@chartwright/console'): string {
  return join(dirname(require.resolve(`${app}/package.json`)), 'dist');
}
