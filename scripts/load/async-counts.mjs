// Preloaded into a server under load (node --import) by `BENCH_COUNTS=1 npm run bench`: counts,
// from start to exit, the async resources the process creates (promises, ticks, timers), the
// HTTP requests it receives and the garbage collections, and writes them as JSON to
// $ASYNC_COUNTS_DIR/<pid>.json when it exits (scripts/load/async-count-report.ts reads them). Per request, these do not drift with the machine's load the
// way CPU time does, so a change's effect shows in one run. The hooks slow the process down:
// timings of a counted run mean nothing.
import { createHook } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import process from 'node:process';

const dir = process.env.ASYNC_COUNTS_DIR;
const resources = {};
const gc = { minor: 0, major: 0 };
let requests = 0;

if (dir) {
  // Node publishes every request its HTTP server receives (an async resource is per connection).
  subscribe('http.server.request.start', () => requests++);
  createHook({
    init(_id, type) {
      resources[type] = (resources[type] ?? 0) + 1;
    },
  }).enable();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) gc.minor++;
      else gc.major++;
    }
  }).observe({ entryTypes: ['gc'] });
  process.once('exit', () => writeFileSync(`${dir}/${process.pid}.json`, JSON.stringify({ requests, resources, gc })));
}
