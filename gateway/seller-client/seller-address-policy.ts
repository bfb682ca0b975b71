import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isAddressLiteral, refusedAddressClass, type RefusedAddressClass } from './address-classes';

// Where a production gateway may send seller calls: https only, never to an address of its own
// host or network or to a cloud metadata service, unless an operator listed the host in
// GATEWAY_ALLOWED_SELLER_HOSTS. Judged twice: when the directory is written (the URL, and the
// addresses its name resolves to then) and at every connect, on the address actually connected
// (a name that resolved to a public address yesterday may resolve to 127.0.0.1 now: DNS rebinding).

export interface SellerAddressPolicy {
  /** Off in development: every URL goes, as the demo's http://127.0.0.1:9090 must. */
  enforce: boolean;
  /** Production: only https. */
  requireHttps: boolean;
  /** Hostnames (lower case) whose addresses are not judged; cloud metadata stays refused. */
  allowedHosts: readonly string[];
}

export const UNRESTRICTED_SELLER_ADDRESSES: SellerAddressPolicy = {
  enforce: false,
  requireHttps: false,
  allowedHosts: [],
};

export const productionSellerAddresses = (allowedHosts: readonly string[]): SellerAddressPolicy => ({
  enforce: true,
  requireHttps: true,
  allowedHosts: allowedHosts.map(normalHost),
});

/** Resolves a name to every address it has, as dns.lookup({ all: true }) does; tests inject their own. */
export type SellerResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: SellerResolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** A refused seller address, as the error code a connect fails with (the seller client maps it to an outcome). */
export const SELLER_ADDRESS_REFUSED = 'ERR_SELLER_ADDRESS_REFUSED';

export class SellerAddressRefusal extends Error {
  readonly code = SELLER_ADDRESS_REFUSED;
  override name = 'SellerAddressRefusal';
}

/** Brackets and a trailing dot do not make another host. */
function normalHost(host: string): string {
  const lower = host.trim().toLowerCase().replace(/\.$/, '');
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}

const isAllowed = (policy: SellerAddressPolicy, host: string) => policy.allowedHosts.includes(normalHost(host));

function addressRefusal(policy: SellerAddressPolicy, host: string, address: string): string | undefined {
  const refused: RefusedAddressClass | undefined = refusedAddressClass(address);
  if (refused === undefined || (refused !== 'cloud-metadata' && isAllowed(policy, host))) return undefined;
  const via = normalHost(host) === normalHost(address) ? '' : ` (${host} resolves to ${address})`;
  const unless =
    refused === 'cloud-metadata'
      ? 'never allowed'
      : `list ${normalHost(host)} in GATEWAY_ALLOWED_SELLER_HOSTS if it is meant`;
  return `${address} is a ${refused} address${via}: refused in production, ${unless}`;
}

/** Why `sellerUrl` is refused before any name is resolved (scheme, an address literal), or undefined. */
export function sellerUrlRefusal(policy: SellerAddressPolicy, sellerUrl: string): string | undefined {
  if (!policy.enforce) return undefined;
  let url: URL;
  try {
    url = new URL(sellerUrl);
  } catch {
    return `'${sellerUrl}' is not a URL`;
  }
  if (url.protocol !== 'https:' && (policy.requireHttps || url.protocol !== 'http:'))
    return `${url.protocol} is refused in production: a seller URL must be https`;
  return isAddressLiteral(url.hostname) ? addressRefusal(policy, url.hostname, url.hostname) : undefined;
}

/**
 * The whole check of a URL being written to the directory: the URL itself, then every address its name resolves to now.
 */
export async function resolvedSellerUrlRefusal(
  policy: SellerAddressPolicy,
  sellerUrl: string,
  resolve: SellerResolver,
): Promise<string | undefined> {
  const refusal = sellerUrlRefusal(policy, sellerUrl);
  if (refusal !== undefined || !policy.enforce) return refusal;
  const host = new URL(sellerUrl).hostname;
  if (isAddressLiteral(host)) return undefined;
  let addresses: { address: string }[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    return `${host} does not resolve: ${(error as Error).message}`;
  }
  for (const { address } of addresses) {
    const refused = addressRefusal(policy, host, address);
    if (refused !== undefined) return refused;
  }
  return undefined;
}

/**
 * net.connect's `lookup` for one seller host: resolves with `resolve` and fails the connect with
 * a SellerAddressRefusal when any address is refused, so no byte goes to it. (An address literal
 * never reaches a lookup: sellerUrlRefusal judges it.)
 */
export function guardedLookup(policy: SellerAddressPolicy, resolve: SellerResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        for (const { address } of all) {
          const refused = addressRefusal(policy, hostname, address);
          if (refused !== undefined) return callback(new SellerAddressRefusal(refused), '', 0);
        }
        const usable =
          options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (usable.length === 0)
          return callback(
            Object.assign(new Error(`${hostname}: no address of family ${options.family}`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        if (options.all === true) return (callback as unknown as (e: null, a: typeof usable) => void)(null, usable);
        callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
