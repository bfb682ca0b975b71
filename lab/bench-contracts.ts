// Contract-check throughput on a large item-inquiry reply: schema alone, rules alone, both
// (checkSellerReply, the reference path), one pass (checkSellerReplyInOnePass, the one pass the gateway
// runs), and JSON.parse of the same text for scale.
// Usage: npm run -w lab bench:contracts [-- --ops 300 --rounds 7 --route-times 1 --distinct-route-times]
// By default each location's route times repeat on every entry, as a seller's delivery runs do;
// --distinct-route-times makes every one different (the worst case for the validator's memo).
import { checkItemInquiryReply, checkSellerReply, validators } from '../contracts/index';
import { checkSellerReplyInOnePass } from '../gateway/speedups/one-pass-check';
import { buildItemInquiryExchange } from '../contracts/testing/large-exchange';
import { median } from './load/latency-stats';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const opsPerRound = arg('ops', 300);
const rounds = arg('rounds', 7);

const distinctRouteTimes = process.argv.includes('--distinct-route-times');
const size = { items: 50, alternates: 3, locations: 5, routeTimes: arg('route-times', 1), distinctRouteTimes };
const { request, reply } = buildItemInquiryExchange(size);
const text = JSON.stringify(reply);
const validate = validators['item-inquiry']['seller-reply'];

// Sanity first: a benchmark of a check that fails measures the failure path.
const sanity = checkSellerReply('item-inquiry', request, JSON.parse(text));
const onePassSanity = checkSellerReplyInOnePass('item-inquiry', request, JSON.parse(text));
if (!sanity.ok || sanity.notes.length > 0 || JSON.stringify(onePassSanity) !== JSON.stringify(sanity)) {
  console.error('the benchmark reply does not pass the contract', sanity);
  process.exit(1);
}

let sink = 0; // consumed results, so no work can be optimised away
// Each check runs on a reply parsed for it and never checked before, as in the gateway:
// re-checking one object would flatter the checks (V8 caches a string's hash on the
// string, so look-ups by id get cheaper the second time round).
const cases: Record<string, (reply: any) => void> = {
  schema: (r) => {
    sink += validate(r).errors.length;
  },
  rules: (r) => {
    sink += checkItemInquiryReply(request, r).violations.length;
  },
  both: (r) => {
    sink += checkSellerReply('item-inquiry', request, r).ok ? 1 : 0;
  },
  onePass: (r) => {
    sink += checkSellerReplyInOnePass('item-inquiry', request, r).ok ? 1 : 0;
  },
  jsonParse: () => {
    sink += (JSON.parse(text) as typeof reply).items.length;
  },
};

/** Replies per second over `ops` runs, timing only the case itself. */
function measure(name: string, ops: number): number {
  const run = cases[name];
  let elapsed = 0n;
  for (let i = 0; i < ops; i++) {
    // A fresh reply, parsed outside the timed part (JSON.parse is timed as its own case)
    // and checked straight away, while it is still in the CPU cache as in the gateway.
    const fresh = name === 'jsonParse' ? undefined : JSON.parse(text);
    const start = process.hrtime.bigint();
    run(fresh);
    elapsed += process.hrtime.bigint() - start;
  }
  return ops / (Number(elapsed) / 1e9);
}

for (const name of Object.keys(cases)) measure(name, 200); // warm-up: let V8 optimise

// Rounds interleave the cases so a busy neighbour slows all of them alike.
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  for (const name of Object.keys(cases)) samples[name].push(measure(name, opsPerRound));
}

const rate = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)])) as Record<
  keyof typeof cases,
  number
>;
const spread = Object.fromEntries(
  Object.entries(samples).map(([k, xs]) => [k, { min: Math.round(Math.min(...xs)), max: Math.round(Math.max(...xs)) }]),
);
// Time per reply of both checks over time per JSON.parse of the same reply.
const ratio = rate.jsonParse / rate.both;
const onePassRatio = rate.jsonParse / rate.onePass;

const entries = reply.items.length;
const locations = reply.items.reduce((n, e) => n + e.locations.length, 0);
console.log(
  `reply: ${size.items} items x (1 + ${size.alternates} alternates) = ${entries} entries, ${locations} locations ` +
    `with ${size.routeTimes} route time(s) each (${distinctRouteTimes ? 'every one different' : "repeating each location's"}), ${text.length} bytes (${(text.length / 1024).toFixed(1)} KiB)`,
);
console.log(
  `${rounds} rounds of ${opsPerRound} replies per case, each check on a freshly parsed reply; median (min-max) replies/second:`,
);
for (const name of Object.keys(cases)) {
  const r = Math.round(rate[name as keyof typeof cases]);
  console.log(
    `  ${name.padEnd(10)} ${String(r).padStart(8)}/s  (${spread[name].min}-${spread[name].max})  ${(1e6 / r).toFixed(1)} µs/reply`,
  );
}
console.log(`both vs JSON.parse: ${(ratio * 100).toFixed(1)}% of the parse time (target <= 10%)`);
console.log(
  `one pass vs JSON.parse: ${(onePassRatio * 100).toFixed(1)}% of the parse time (target <= 8%); one pass / both ${(rate.both / rate.onePass).toFixed(3)} of the time`,
);
console.log(
  `targets: both >= 5000/s ${rate.both >= 5000 ? 'met' : 'MISSED'}; both <= 10% of JSON.parse ${ratio <= 0.1 ? 'met' : 'MISSED'}; one pass <= 8% ${onePassRatio <= 0.08 ? 'met' : 'MISSED'}`,
);
if (sink === -1) console.log(''); // keeps `sink` observable
console.log(
  JSON.stringify({
    bench: 'contracts',
    replyBytes: text.length,
    entries,
    locations,
    routeTimesPerLocation: size.routeTimes,
    distinctRouteTimes,
    rounds,
    opsPerRound,
    schemaPerSec: Math.round(rate.schema),
    rulesPerSec: Math.round(rate.rules),
    bothPerSec: Math.round(rate.both),
    onePassPerSec: Math.round(rate.onePass),
    jsonParsePerSec: Math.round(rate.jsonParse),
    bothVsJsonParse: Number(ratio.toFixed(4)),
    onePassVsJsonParse: Number(onePassRatio.toFixed(4)),
    spread,
    targets: { bothPerSec: 5000, bothVsJsonParse: 0.1, onePassVsJsonParse: 0.08 },
    met: rate.both >= 5000 && ratio <= 0.1,
    node: process.version,
  }),
);
