// Preloaded into a server under load (node --import) by `BENCH_COUNTS=1 npm run -w lab bench`: counts
// the async resources the process creates (promises, ticks, timers), the HTTP requests it
// receives, the garbage collections and the bytes it allocates, and writes them as JSON to
// $ASYNC_COUNTS_DIR/<pid>.json when it exits (lab/load/async-count-report.ts reads them).
// Per request, these do not drift with the machine's load the way CPU time does, so a change's
// effect shows in one run. Two windows: the whole process, and the steady state from request
// ASYNC_COUNTS_FROM (default 1,000) on, which start-up and warm-up (store, first compilations,
// caches filling) do not skew. Allocated bytes: the heap's growth over the window plus what
// every collection in it freed (v8.GCProfiler). The hooks slow the process down: timings of
// a counted run mean nothing.
import { createHook } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import process from 'node:process';
import v8 from 'node:v8';

const dir = process.env.ASYNC_COUNTS_DIR;
const from = Number(process.env.ASYNC_COUNTS_FROM ?? 1000);
const resources = {};
const gc = { minor: 0, major: 0 };
let requests = 0;
/** The counts when the steady window opened. */
let opened;
let profiler;

if (dir) {
  // Node publishes every request its HTTP server receives (an async resource is per connection).
  subscribe('http.server.request.start', () => {
    requests++;
    if (requests === from) {
      opened = { requests, resources: { ...resources }, gc: { ...gc }, used: v8.getHeapStatistics().used_heap_size };
      profiler = new v8.GCProfiler();
      profiler.start();
    }
  });
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
  process.once('exit', () => {
    let steady;
    if (opened !== undefined) {
      const collections = profiler.stop()?.statistics ?? [];
      const freed = collections.reduce(
        (sum, s) => sum + s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize,
        0,
      );
      const since = (now, then) =>
        Object.fromEntries(Object.entries(now).map(([key, n]) => [key, n - (then[key] ?? 0)]));
      steady = {
        from,
        requests: requests - opened.requests,
        resources: since(resources, opened.resources),
        gc: since(gc, opened.gc),
        allocatedBytes: v8.getHeapStatistics().used_heap_size - opened.used + freed,
      };
    }
    writeFileSync(`${dir}/${process.pid}.json`, JSON.stringify({ requests, resources, gc, steady }));
  });
}
