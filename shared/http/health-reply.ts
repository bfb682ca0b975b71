import { Type, type Static } from '@sinclair/typebox';

// What GET /health answers a load balancer (gateway/http/health-route.ts): 200 when the
// store answers, 503 naming the dependency that is down.

export const HealthReply = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
    store: Type.String({ description: 'pglite or postgres' }),
    down: Type.Optional(Type.Array(Type.String(), { description: 'the dependencies that are down' })),
    message: Type.Optional(Type.String()),
  },
  { title: 'Health reply', additionalProperties: false },
);
export type HealthReply = Static<typeof HealthReply>;
