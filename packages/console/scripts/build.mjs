// Builds the console app (served at /console) with the apps' shared Vite build. The build fails if
// zod reaches the bundle: the app takes only the protocol's types and zod-free values, and checks
// nothing a server answer already guarantees.
import { buildViteApp } from '../../../scripts/vite-app.mjs';

await buildViteApp(import.meta.url, {
  name: '@chartwright/console',
  base: '/console/',
  bundles: ['protocol/dist'],
  forbidden: /[\\/]node_modules[\\/]zod[\\/]/,
});
