import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';

import { withOperationAudit } from '@chartwright/testing/operation-audit.js';
import { AppError } from '../errors.js';
import { errorBody } from './error-body.js';
import { answerErrorsWith } from './error-handler.js';
import { registerJsonBodyParser } from './json-body.js';
import { guardedArea, openArea, route, type Guard } from './route.js';
import { registerRouteTable } from './route-table.js';

const widgetGuard: Guard<'widget_token', { clinician: string }> = {
  auth: 'widget_token',
  authenticate: (request) => {
    if (request.headers.authorization !== 'Bearer ok') throw new AppError('invalid_widget_token', 'No.');
    return Promise.resolve({ clinician: 'cln_1' });
  },
  idempotencyScope: (principal) => `clinician:${principal.clinician}`,
};

describe('route()', () => {
  let app: FastifyInstance;
  let closeAudit: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await app.close();
    await closeAudit?.();
    closeAudit = undefined;
  });

  /** An app with the plumbing route() needs; an audit log unless told (operations on patient data need one). */
  const bare = async ({ audited = true } = {}) => {
    app = Fastify();
    registerRouteTable(app);
    registerJsonBodyParser(app);
    answerErrorsWith(app, errorBody);
    if (audited) closeAudit = await withOperationAudit(app);
    return app;
  };

  it('refuses at startup an operation whose auth is not its area’s, or outside any area', async () => {
    const refusals: unknown[] = [];
    await (
      await bare()
    ).register((context, _options, done) => {
      const widget = guardedArea(context, widgetGuard);
      try {
        route(widget as never, 'createNote', () => null as never);
      } catch (error) {
        refusals.push(error);
      }
      done();
    });
    await app.register((context, _options, done) => {
      try {
        route(openArea(context) as never, 'retrieveNote', () => null as never);
      } catch (error) {
        refusals.push(error);
      }
      done();
    });
    await app.register((context, _options, done) => {
      try {
        route(context as never, 'liveness', () => ({ status: 'ok' }) as const);
      } catch (error) {
        refusals.push(error);
      }
      done();
    });
    expect(refusals.map(String)).toEqual([
      'Error: createNote (auth api_key) cannot be registered in an area whose guard is widget_token',
      'Error: retrieveNote (auth api_key) cannot be registered in an area whose guard is none',
      'Error: liveness (auth none) cannot be registered in a context that is no area',
    ]);
    await app.ready();
    expect(app.knownRoutes()).toEqual([]);
  });

  it('refuses at startup an operation on patient data in an app without an audit log, and serves the others', async () => {
    const refusals: unknown[] = [];
    await (
      await bare({ audited: false })
    ).register((context, _options, done) => {
      const widget = guardedArea(context, widgetGuard);
      try {
        route(widget, 'getWidgetTranscript', () => null as never);
      } catch (error) {
        refusals.push(error);
      }
      route(widget, 'getWidgetSession', () => null as never);
      done();
    });
    expect(refusals.map(String)).toEqual([
      'Error: getWidgetTranscript touches patient data: it can only be served by an app with an audit log',
    ]);
    await app.ready();
    expect(new Set(app.knownRoutes().map((known) => known.url))).toEqual(new Set(['/api/widget/session']));
  });

  it('refuses at startup an operation that takes an Idempotency-Key behind a guard that scopes none', async () => {
    const refusals: unknown[] = [];
    await (
      await bare()
    ).register(
      (context, _options, done) => {
        const widget = guardedArea(context, {
          auth: 'widget_token',
          authenticate: (request, reply) => widgetGuard.authenticate(request, reply),
        });
        try {
          route(widget, 'createWidgetDocument', () => null as never);
        } catch (error) {
          refusals.push(error);
        }
        route(widget, 'getWidgetSession', () => null as never);
        done();
      },
      { prefix: '/api/widget/' },
    );
    expect(refusals.map(String)).toEqual([
      'Error: createWidgetDocument takes an Idempotency-Key: it can only be served in an area whose guard scopes keys',
    ]);
    await app.ready();
    expect(new Set(app.knownRoutes().map((known) => known.url))).toEqual(new Set(['/api/widget/session']));
  });

  it('serves an operation behind its guard, with its typed params and principal, its status and body checks', async () => {
    await (
      await bare()
    ).register(
      (context, _options, done) => {
        const widget = guardedArea(context, widgetGuard);
        route(
          widget,
          'updateWidgetNote',
          ({ body, params, principal }) =>
            ({
              id: params.noteId,
              sessionId: params.sessionId,
              revision: body.revision ?? 0,
              templateId: principal.clinician,
            }) as never,
        );
        route(widget, 'createWidgetRealtimeToken', () => ({ token: 't', wsUrl: 'ws://x', expiresAt: 'now' }));
        done();
      },
      { prefix: '/api/widget/' },
    );
    const update = (authorization: string, payload: unknown) =>
      app.inject({
        method: 'PUT',
        url: '/api/widget/encounters/ses_1/notes/note_1',
        headers: { authorization },
        payload: payload as Record<string, unknown>,
      });
    expect((await update('Bearer no', { sections: { hpi: 'Cough.' } })).statusCode).toBe(401);
    const ok = await update('Bearer ok', { sections: { hpi: 'Cough.' }, revision: 2 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ id: 'note_1', sessionId: 'ses_1', revision: 2, templateId: 'cln_1' });
    const invalid = await update('Bearer ok', { revision: 'two', extra: 1 });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json<{ error: { code: string; details: { path: string }[] } }>().error).toMatchObject({
      code: 'invalid_body',
      details: [{ path: 'sections' }, { path: 'revision' }, { path: 'extra' }],
    });
    const created = await app.inject({
      method: 'POST',
      url: '/api/widget/realtime-tokens',
      headers: { authorization: 'Bearer ok', 'content-type': 'application/json' },
      payload: { sessionId: 'ses_1' },
    });
    expect(created.statusCode).toBe(201);
  });

  it('refuses a body sent to an operation that takes none, before reading it and after the guard', async () => {
    await (
      await bare()
    ).register(
      (context, _options, done) => {
        const widget = guardedArea(context, widgetGuard);
        route(widget, 'deleteWidgetEncounter', () => null);
        route(widget, 'getWidgetSession', () => ({ ok: true }) as never);
        done();
      },
      { prefix: '/api/widget/' },
    );
    const remove = (authorization: string, extra: { payload?: string; headers?: Record<string, string> } = {}) =>
      app.inject({
        method: 'DELETE',
        url: '/api/widget/encounters/ses_1',
        headers: { authorization, ...extra.headers },
        ...(extra.payload === undefined ? {} : { payload: extra.payload }),
      });
    const json = { 'content-type': 'application/json' };
    const session = { authorization: 'Bearer ok', ...json };
    for (const refused of [
      await remove('Bearer ok', { payload: '{"reason":"wrong patient"}', headers: json }),
      await remove('Bearer ok', { payload: 'hello', headers: { 'content-type': 'text/plain' } }),
      await app.inject({ method: 'GET', url: '/api/widget/session', headers: session, payload: '{}' }),
    ]) {
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ error: { code: string } }>().error.code).toBe('body_not_allowed');
    }
    expect((await remove('Bearer no', { payload: '{}', headers: json })).statusCode).toBe(401);
    expect((await remove('Bearer ok')).statusCode).toBe(204);
    expect((await remove('Bearer ok', { payload: '', headers: { ...json, 'content-length': '0' } })).statusCode).toBe(
      204,
    );
  });
});
