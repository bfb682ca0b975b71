// The answers Node's HTTP server (and its Hono adapter) give before the API sees a request
// (shared/http/server-answers.ts), as the documents' shared responses. They carry no body the
// API would send, so no content; `x-answered-by` marks them, so a checker of the API's own
// replies (fuzz/reply-checks.ts) does not take an app's answer of the same status for one.
import { SERVER_ANSWERS } from '../../shared/http/server-answers';
import type { SharedAnswer } from '../../contracts/openapi-builder';

const ANSWERED_BY_SERVER = 'x-answered-by';

export const SERVER_ANSWER_RESPONSES: SharedAnswer[] = SERVER_ANSWERS.map((a) => ({
  status: a.status,
  name: a.name,
  response: {
    description: a.description,
    ...(a.closes
      ? {
          headers: {
            Connection: {
              description: 'The connection is closed after this answer',
              schema: { type: 'string', const: 'close' },
            },
          },
        }
      : {}),
    [ANSWERED_BY_SERVER]: 'node-http-server',
  },
}));
