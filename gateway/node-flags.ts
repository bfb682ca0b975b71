// The V8 heap flags every long-lived gateway process runs with: `npm start`, `npm run gateway`
// (both lines in package.json, pinned equal to this by node-flags.test.ts) and each cluster
// worker (gateway-cluster.ts passes them to fork). Why these values: docs/performance.md.
export const GATEWAY_HEAP_FLAGS = ['--max-old-space-size=192', '--max-semi-space-size=8'] as const;

/** `execArgv` plus the heap flags it does not set itself (a flag given on the command line wins). */
export function withGatewayHeapFlags(execArgv: readonly string[]): string[] {
  const missing = GATEWAY_HEAP_FLAGS.filter(
    (flag) => !execArgv.some((arg) => arg.startsWith(flag.slice(0, flag.indexOf('=') + 1))),
  );
  return [...execArgv, ...missing];
}
