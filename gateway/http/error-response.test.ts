import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { OverallStatus } from '../../contracts/index';
import { SellerTimeoutError } from '../errors';
import { SellerCircuitOpenError } from '../protection/protection-errors';
import { errorResponse } from './error-response';
import type { GatewayEnv } from './gateway-env';

// The one place failures become responses: our own errors as they are, Hono's own refusals
// with their status (never a 500), anything else a 500 that says nothing of the inside.

function appThrowing(error: unknown): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.onError(errorResponse);
  app.get('/', () => {
    throw error;
  });
  return app;
}

describe('errorResponse', () => {
  it("answers Hono's HTTPException with its own status in the gateway's error body", async () => {
    const res = await appThrowing(new HTTPException(413, { message: 'Payload Too Large' })).request('/');
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ status_code: OverallStatus.ValidationError, message: 'Payload Too Large' });
  });

  it('keeps a gateway error restated with more context: same kind, status, Retry-After and details', async () => {
    const open = SellerCircuitOpenError.after(7, 'member M100 is resting', [
      { path: '', message: 'breaker open', member: 'M100' },
    ]);
    const restated = open.restated('member M100 is resting; try M200');
    expect(restated).toBeInstanceOf(SellerCircuitOpenError);
    expect(restated.stack).toBe(open.stack);
    const res = await appThrowing(restated).request('/');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({
      status_code: OverallStatus.ServiceOffline,
      message: 'member M100 is resting; try M200',
      errors: [{ path: '', message: 'breaker open', member: 'M100' }],
    });
  });

  it('answers anything unforeseen with 500 and a message that names no internals', async () => {
    const res = await appThrowing(new TypeError("Cannot read properties of undefined (reading 'x')")).request('/');
    expect(res.status).toBe(500);
    const body = (await res.json()) as { status_code: number; message: string };
    expect(body.status_code).toBe(OverallStatus.SystemError);
    expect(body.message).not.toContain('reading');
  });

  it('restating does not change the original error', () => {
    const timeout = new SellerTimeoutError('no answer in 2000 ms');
    timeout.restated('no answer in 2000 ms; the order may be placed');
    expect(timeout.message).toBe('no answer in 2000 ms');
  });
});
