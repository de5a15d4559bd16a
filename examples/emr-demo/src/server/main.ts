import { startEmrDemo } from './emr-server.js';

/*
 * The demo EMR on its own, against a Chartwright service running elsewhere:
 *   CHARTWRIGHT_URL=https://scribe.example.org CHARTWRIGHT_PARTNER_KEY=ptn_….… \
 *   PORT=8081 node examples/emr-demo/dist/main.js
 * The partner's allowed origin must be the address this prints (or PUBLIC_URL, when set).
 */
const env = process.env;
const problems = [
  ...['CHARTWRIGHT_URL', 'CHARTWRIGHT_PARTNER_KEY']
    .filter((name) => (env[name] ?? '') === '')
    .map((name) => `${name}: is required`),
  ...(/^\d{1,5}$/.test(env['PORT'] ?? '8081') ? [] : ['PORT: must be a port number']),
];
if (problems.length > 0) {
  process.stderr.write(`emr-demo: ${problems.join('; ')}\n`);
  process.exit(2);
}
const chartwrightUrl = (env['CHARTWRIGHT_URL'] ?? '').replace(/\/+$/, '');
const demo = await startEmrDemo({
  chartwrightUrl,
  widgetUrl: env['CHARTWRIGHT_WIDGET_URL'] ?? `${chartwrightUrl}/widget`,
  partnerKey: env['CHARTWRIGHT_PARTNER_KEY'] ?? '',
  host: env['HOST'] ?? '127.0.0.1',
  port: Number(env['PORT'] ?? 8081),
  ...(env['PUBLIC_URL'] === undefined ? {} : { publicUrl: env['PUBLIC_URL'] }),
});
process.stdout.write(`Demo EMR: ${demo.url}\n`);
