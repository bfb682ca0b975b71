import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSellerClient } from './seller-client';
import {
  productionSellerAddresses,
  resolvedSellerUrlRefusal,
  sellerUrlRefusal,
  UNRESTRICTED_SELLER_ADDRESSES,
  type SellerAddressPolicy,
  type SellerResolver,
} from './seller-address-policy';

const production = productionSellerAddresses([]);
const resolvesTo =
  (...addresses: string[]): SellerResolver =>
  () =>
    Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

describe('a seller URL written to the directory', () => {
  it('must be https in production', () => {
    expect(sellerUrlRefusal(production, 'http://seller.example/seller')).toMatch(
      /http: is refused in production: a seller URL must be https/,
    );
    expect(sellerUrlRefusal(production, 'https://seller.example/seller')).toBeUndefined();
  });

  it.each([
    ['https://127.0.0.1/seller', 'loopback'],
    ['https://[::1]/seller', 'loopback'],
    ['https://10.0.0.5/seller', 'private'],
    ['https://[fd00::5]/seller', 'private'],
    ['https://169.254.10.10/seller', 'link-local'],
    ['https://[fe80::1]/seller', 'link-local'],
    ['https://0.0.0.0/seller', 'unspecified'],
    ['https://[::]/seller', 'unspecified'],
    ['https://100.64.1.1/seller', 'cgnat'],
    ['https://[::ffff:127.0.0.1]/seller', 'loopback'],
    ['https://[::ffff:192.168.0.1]/seller', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'cloud-metadata'],
    ['https://[fd00:ec2::254]/', 'cloud-metadata'],
    ['https://2130706433/seller', 'loopback'],
  ])('refuses the literal %s (%s)', (url, refused) => {
    expect(sellerUrlRefusal(production, url)).toContain(`is a ${refused} address`);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['192.168.4.4', 'private'],
    ['fc00::4', 'private'],
    ['169.254.4.4', 'link-local'],
    ['fe80::4', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['100.100.0.1', 'cgnat'],
    ['::ffff:10.1.1.1', 'private'],
    ['169.254.169.254', 'cloud-metadata'],
    ['fd00:ec2::254', 'cloud-metadata'],
  ])('refuses a name that resolves to %s (%s), naming both', async (address, refused) => {
    const refusal = await resolvedSellerUrlRefusal(
      production,
      'https://seller.example/seller',
      resolvesTo('93.184.216.34', address),
    );
    expect(refusal).toContain(`seller.example resolves to ${address}`);
    expect(refusal).toContain(`is a ${refused} address`);
  });

  it('admits a name that resolves only to public addresses', async () => {
    expect(
      await resolvedSellerUrlRefusal(
        production,
        'https://seller.example/seller',
        resolvesTo('93.184.216.34', '2606:4700::1111'),
      ),
    ).toBeUndefined();
  });

  it('admits an internal address for a host on GATEWAY_ALLOWED_SELLER_HOSTS, but never a cloud metadata address', async () => {
    const allowing = productionSellerAddresses(['Seller.Internal', '10.0.0.5', '169.254.169.254']);
    expect(
      await resolvedSellerUrlRefusal(allowing, 'https://seller.internal/seller', resolvesTo('10.1.2.3')),
    ).toBeUndefined();
    expect(sellerUrlRefusal(allowing, 'https://10.0.0.5/seller')).toBeUndefined();
    expect(sellerUrlRefusal(allowing, 'https://10.0.0.6/seller')).toContain(
      'list 10.0.0.6 in GATEWAY_ALLOWED_SELLER_HOSTS',
    );
    expect(sellerUrlRefusal(allowing, 'https://169.254.169.254/')).toContain('never allowed');
    expect(
      await resolvedSellerUrlRefusal(allowing, 'https://seller.internal/seller', resolvesTo('169.254.169.254')),
    ).toContain('never allowed');
    expect(sellerUrlRefusal(allowing, 'http://seller.internal/seller')).toContain('must be https');
  });

  it('refuses a name that does not resolve', async () => {
    const failing: SellerResolver = () => Promise.reject(new Error('getaddrinfo ENOTFOUND nowhere.example'));
    expect(await resolvedSellerUrlRefusal(production, 'https://nowhere.example/', failing)).toMatch(/does not resolve/);
  });

  it('judges nothing in development (the demo calls http://127.0.0.1:9090)', async () => {
    expect(sellerUrlRefusal(UNRESTRICTED_SELLER_ADDRESSES, 'http://127.0.0.1:9090/seller')).toBeUndefined();
    expect(
      await resolvedSellerUrlRefusal(
        UNRESTRICTED_SELLER_ADDRESSES,
        'http://localhost:9090/seller',
        resolvesTo('127.0.0.1'),
      ),
    ).toBeUndefined();
  });
});

describe('a seller call at connect time', () => {
  let server: Server;
  let port: number;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // http here only because the test server has no certificate: the connect-time check is about addresses.
  const httpAllowed = (allowedHosts: string[] = []): SellerAddressPolicy => ({
    ...productionSellerAddresses(allowedHosts),
    requireHttps: false,
  });
  const member = (sellerUrl: string) => ({
    id: 'M900',
    sellerUrl,
    sellerAuth: { kind: 'none' as const },
    timeoutMs: 2_000,
  });

  it('refuses a name that resolved to a public address when written and to loopback at connect (DNS rebinding): nothing is sent', async () => {
    const answers = ['93.184.216.34', '127.0.0.1'];
    const rebinding: SellerResolver = () => Promise.resolve([{ address: answers.shift() ?? '127.0.0.1', family: 4 }]);
    const url = `http://rebind.example:${port}/seller`;
    expect(await resolvedSellerUrlRefusal(httpAllowed(), url, rebinding)).toBeUndefined();

    const client = createSellerClient({ addressPolicy: httpAllowed(), resolver: rebinding });
    const before = requests;
    const outcome = await client.call({ member: member(url), body: { service: 'item_inquiry' } });
    await client.close();
    expect(outcome).toMatchObject({ kind: 'refused-address' });
    expect(outcome.kind === 'refused-address' && outcome.message).toMatch(
      /member M900 .* was not called: 127\.0\.0\.1 is a loopback address \(rebind\.example resolves to 127\.0\.0\.1\)/,
    );
    expect(requests).toBe(before);
  });

  it('connects to the address its resolver gave for an allowed host (the same lookup the refusal comes from)', async () => {
    const client = createSellerClient({
      addressPolicy: httpAllowed(['rebind.example']),
      resolver: resolvesTo('127.0.0.1'),
    });
    const before = requests;
    const outcome = await client.call({
      member: member(`http://rebind.example:${port}/seller`),
      body: { service: 'item_inquiry' },
    });
    await client.close();
    expect(outcome).toMatchObject({ kind: 'reply', body: { ok: true } });
    expect(requests).toBe(before + 1);
  });

  it('refuses an address literal and http before any connection in production', async () => {
    const client = createSellerClient({ addressPolicy: production });
    const before = requests;
    const literal = await client.call({ member: member(`https://127.0.0.1:${port}/seller`), body: {} });
    const plain = await client.call({ member: member(`http://seller.example:${port}/seller`), body: {} });
    await client.close();
    expect(literal).toMatchObject({ kind: 'refused-address' });
    expect(plain.kind === 'refused-address' && plain.message).toMatch(/must be https/);
    expect(requests).toBe(before);
  });
});
