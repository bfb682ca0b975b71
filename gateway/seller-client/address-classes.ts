import { isIPv4, isIPv6 } from 'node:net';

// Which addresses a production gateway must never send a seller call to: its own host, the
// networks behind it and the cloud's metadata service (SSRF). An IPv6 form that carries an
// IPv4 address (mapped, compatible, NAT64, 6to4) is judged by the IPv4 address inside it.

export type RefusedAddressClass =
  | 'cloud-metadata'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'cgnat'
  | 'multicast'
  | 'reserved'
  | 'not-an-address';

/** Never reachable, whatever GATEWAY_ALLOWED_SELLER_HOSTS says: no seller lives on a metadata service. */
const CLOUD_METADATA_V4 = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', '192.0.0.192']);
const CLOUD_METADATA_V6 = new Set(['fd00:ec2:0:0:0:0:0:254']);

type V4Range = [base: number, bits: number, refused: RefusedAddressClass];

const v4 = (text: string): number => text.split('.').reduce((n, part) => n * 256 + Number(part), 0);

const V4_RANGES: V4Range[] = [
  [v4('0.0.0.0'), 8, 'unspecified'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('100.64.0.0'), 10, 'cgnat'],
  [v4('192.0.0.0'), 24, 'reserved'],
  [v4('198.18.0.0'), 15, 'reserved'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

const inV4Range = (address: number, [base, bits]: V4Range): boolean =>
  Math.floor(address / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits));

function ipv4Class(text: string): RefusedAddressClass | undefined {
  if (CLOUD_METADATA_V4.has(text)) return 'cloud-metadata';
  const address = v4(text);
  return V4_RANGES.find((range) => inV4Range(address, range))?.[2];
}

/** Eight 16-bit groups of an IPv6 address (any textual form, an IPv4 tail included). */
function ipv6Groups(text: string): number[] {
  // The URL parser writes every IPv6 address in one canonical form, without a dotted tail.
  const canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.includes('::') ? canonical.split('::') : [canonical, undefined];
  const parse = (part: string | undefined) =>
    part === undefined || part === '' ? [] : part.split(':').map((g) => parseInt(g, 16));
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number): string => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

function ipv6Class(text: string): RefusedAddressClass | undefined {
  const g = ipv6Groups(text);
  if (CLOUD_METADATA_V6.has(g.map((n) => n.toString(16)).join(':'))) return 'cloud-metadata';
  const zeros = (from: number, to: number) => g.slice(from, to).every((n) => n === 0);
  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64): the IPv4 address decides.
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return ipv4Class(ipv4Of(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Class(ipv4Of(g[6], g[7]));
  // 2002:aabb:ccdd::/48 (6to4) routes to the IPv4 address aa.bb.cc.dd.
  if (g[0] === 0x2002) return ipv4Class(ipv4Of(g[1], g[2]));
  if ((g[0] & 0xfe00) === 0xfc00) return 'private'; // fc00::/7, unique local
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g[0] & 0xffc0) === 0xfec0) return 'private'; // fec0::/10, the deprecated site-local
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  return undefined;
}

/** Why a production seller call may not go to `address` (an IP address as text), or undefined when it may. */
export function refusedAddressClass(address: string): RefusedAddressClass | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return ipv4Class(bare);
  if (isIPv6(bare)) return ipv6Class(bare);
  return 'not-an-address';
}

/** Whether `host` (a URL's hostname) is an IP address literal rather than a name. */
export const isAddressLiteral = (host: string): boolean =>
  isIPv4(host) || (host.startsWith('[') && isIPv6(host.slice(1, -1)));
