import { describe, expect, it } from 'vitest';
import { REDACTED, withoutCredentials } from './run-certification';

// A certificate keeps the kit's report, whose curl commands carry the request headers: the
// member's seller credentials are taken out before it is written.

describe('withoutCredentials', () => {
  it('takes a bearer token and a basic credential out of every string, however deep', () => {
    const basic = `Basic ${Buffer.from('n7:s3cret"pass').toString('base64')}`;
    const report = {
      explore: { failures: [{ curl: "curl -H 'authorization: Bearer tok-123456' https://s/seller" }] },
      load: [`-H 'authorization: ${basic}'`],
      note: 'tok-123456 alone',
    };
    const clean = withoutCredentials(report, { authorization: 'Bearer tok-123456' });
    expect(JSON.stringify(clean)).not.toContain('tok-123456');
    expect(clean.explore.failures[0].curl).toBe(`curl -H 'authorization: ${REDACTED}' https://s/seller`);
    expect(clean.note).toBe(`${REDACTED} alone`);
    expect(JSON.stringify(withoutCredentials(report, { authorization: basic }))).not.toContain(basic.slice(6));
  });

  it('leaves a report without credentials as it is', () => {
    const report = { verify: { ok: true } };
    expect(withoutCredentials(report, {})).toBe(report);
  });
});
