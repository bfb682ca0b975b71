import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Listening } from '../../shared/http/listen';
import {
  bothLeftToStandIn,
  DEADLINE_MS,
  LATE_MS,
  LATE_PATHS,
  listenLate,
  STAND_IN_FAILURES,
  withStandInGlobalDispatcher,
} from '../../shared/testing/late-replies';
import { createRecordingProxy, type RecordedExchange } from './recording-proxy';

// The recording proxy's upstream calls have a deadline of their own (timeoutMs): undici's 300 s
// timeouts must not end a longer one first (shared/testing/late-replies.ts: the global
// dispatcher stands in at 300 ms, the upstream answers 2 s late).

const replyText = JSON.stringify({ status_code: 2000, items: [] });
let late: Listening;
beforeAll(async () => {
  late = await listenLate(replyText);
});
afterAll(() => late.close());

it('the stand-in fails both late replies for a fetch left to it (the test can see the fault)', async () => {
  expect(await bothLeftToStandIn(late.url)).toEqual(STAND_IN_FAILURES);
});

it(`passes on and records upstream replies ${LATE_MS} ms late under a ${DEADLINE_MS} ms timeout, headers or body late`, async () => {
  const recorded: RecordedExchange[] = [];
  const answers = await withStandInGlobalDispatcher(() =>
    Promise.all(
      LATE_PATHS.map(async (path) => {
        const proxy = createRecordingProxy({
          upstream: `${late.url}${path}`,
          timeoutMs: DEADLINE_MS,
          onExchange: (e) => recorded.push(e),
        });
        const response = await proxy.request('/seller', { method: 'POST', body: '{"service":"item_inquiry"}' });
        return { status: response.status, text: await response.text() };
      }),
    ),
  );
  expect(answers).toEqual([
    { status: 200, text: replyText },
    { status: 200, text: replyText },
  ]);
  expect(recorded.map((e) => e.http_status)).toEqual([200, 200]);
});
