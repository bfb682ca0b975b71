import { Type, type Static } from '@sinclair/typebox';

// What GET /health answers a load balancer (gateway/http/health-route.ts): 200 when the
// store answers, 503 naming the dependency that is down, or with reason `draining` while the
// instance is shutting down (shared/http/drain.ts) and the balancer should send requests elsewhere.

export const HealthReply = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
    store: Type.String({ description: 'pglite or postgres' }),
    down: Type.Optional(Type.Array(Type.String(), { description: 'the dependencies that are down' })),
    reason: Type.Optional(
      Type.Literal('draining', {
        description: 'why it answers 503 when no dependency is down: the instance is shutting down',
      }),
    ),
    message: Type.Optional(Type.String()),
  },
  { title: 'Health reply', additionalProperties: false },
);
export type HealthReply = Static<typeof HealthReply>;
