// Builds the widget app (the server fills in index.html's boot data and serves it at /widget) with
// the apps' shared Vite build.
import { buildViteApp } from '../../../scripts/vite-app.mjs';

await buildViteApp(import.meta.url, {
  name: '@chartwright/widget',
  base: '/widget/',
  bundles: ['protocol/dist', 'client/dist/browser'],
});
