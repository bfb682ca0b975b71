import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEV_KEYS, type DevKey } from '../gateway/auth/dev-keys';
import { mintToken, PRODUCTION_TOKEN_TTL_SECONDS } from '../gateway/auth/mint-token';

// npm run token -- [--user demo] [--kid dev-key-1] [--audience groupvan] [--ttl 300]
//                  [--private-key <pem> --issuer <client id> [--alg RS256|ES256]]
// Mints a token the way production buyer clients do, with a seeded DEVELOPMENT key by
// default. The token is alone on the last line of stdout:  TOKEN=$(npm run -s token | tail -1)

const { values } = parseArgs({
  options: {
    user: { type: 'string' },
    kid: { type: 'string' },
    audience: { type: 'string', default: 'groupvan' },
    ttl: { type: 'string', default: String(PRODUCTION_TOKEN_TTL_SECONDS) },
    'private-key': { type: 'string' },
    issuer: { type: 'string' },
    alg: { type: 'string', default: 'RS256' },
    'no-sub': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

function fail(message: string): never {
  console.error(`token: ${message}`);
  process.exit(2);
}

if (values.help) {
  console.log('npm run token -- [--user demo|other] [--kid <kid>] [--audience groupvan] [--ttl 300] [--no-sub]');
  console.log('                 [--private-key <pem file> --issuer <client id> [--alg RS256|ES256]]');
  process.exit(0);
}

const ttl = Number(values.ttl);
if (!Number.isInteger(ttl) || ttl <= 0) fail(`--ttl must be a positive number of seconds, got '${values.ttl}'`);
if (values.alg !== 'RS256' && values.alg !== 'ES256') fail(`--alg must be RS256 or ES256, got '${values.alg}'`);

const devKeys = Object.values(DEV_KEYS) as DevKey[];
let kid: string;
let issuer: string;
let keyFile: string;
let user: string | undefined = values.user;
let development = false;

if (values['private-key'] !== undefined) {
  // A buyer system's own key, registered with `npm run keys -- add ...`.
  if (values.kid === undefined || values.issuer === undefined)
    fail('--private-key needs --kid and --issuer (the client id the key is registered to)');
  kid = values.kid;
  issuer = values.issuer;
  keyFile = values['private-key'];
} else {
  const dev =
    values.kid !== undefined
      ? devKeys.find((k) => k.kid === values.kid)
      : devKeys.find((k) => k.username === (user ?? 'demo'));
  if (dev === undefined) {
    fail(
      values.kid !== undefined
        ? `no development key '${values.kid}' (known: ${devKeys.map((k) => k.kid).join(', ')}); use --private-key for your own key`
        : `no development key for user '${user}' (known users: ${devKeys.map((k) => k.username).join(', ')})`,
    );
  }
  kid = dev.kid;
  issuer = values.issuer ?? dev.clientId;
  keyFile = dev.privateKeyFile;
  user ??= dev.username;
  development = true;
}

let pem: string;
try {
  pem = await readFile(keyFile, 'utf8');
} catch (error) {
  fail(`cannot read the private key ${keyFile}: ${(error as Error).message}`);
}

const issuedAt = Math.floor(Date.now() / 1000);
const token = await mintToken({
  privateKey: pem,
  algorithm: values.alg,
  kid,
  issuer,
  subject: values['no-sub'] ? undefined : user,
  audience: values.audience,
  ttlSeconds: ttl,
  issuedAt,
});

console.log(
  `# ${development ? 'DEVELOPMENT ' : ''}token: sub ${values['no-sub'] ? '(none)' : user}, iss ${issuer}, ` +
    `kid ${kid}, aud ${values.audience}, expires ${new Date((issuedAt + ttl) * 1000).toISOString()}`,
);
console.log(token);
