import { describe, expect, it } from 'vitest';

import { errorOfAnswer, ServiceCallError } from './service-call-error.js';

class AppError extends ServiceCallError {}

const answer = (status: number, body: string) => ({
  status,
  json: () => Promise.resolve().then(() => JSON.parse(body) as unknown),
});

describe('errorOfAnswer', () => {
  it('reads the code, message and details under `error`, from the REST body and the widget envelope alike', async () => {
    const details = [{ path: 'issuer', message: 'must be https' }];
    for (const body of [
      { error: { code: 'invalid_body', message: 'issuer: must be https', details } },
      { success: false, error: { code: 'invalid_body', message: 'issuer: must be https', details } },
    ]) {
      const error = await errorOfAnswer(answer(400, JSON.stringify(body)), AppError);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'invalid_body', message: 'issuer: must be https', status: 400, details });
    }
  });

  it('says only the status when the body is not the service’s (a proxy’s page, an empty body)', async () => {
    for (const body of ['<html>Bad gateway</html>', '', '{"error":"nope"}', '{"error":{"code":7,"details":{}}}']) {
      const error = await errorOfAnswer(answer(502, body), AppError);
      expect(error).toMatchObject({ code: 'internal_error', message: 'The service answered 502.', details: [] });
    }
  });
});
