// JSON Schemas of production conformance's replies (gateway/conformance/), for the internal
// API's OpenAPI document. The types live with the figures; the assignments at the bottom make
// typecheck fail when the two drift apart.
import { Type, type Static } from '@sinclair/typebox';
import { ProductionReplayFile } from '../../contracts/production-replay';
import type { ConformanceReport, MemberConformance } from '../conformance/conformance-figures';

const Rate = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
  description: 'broken / judged; null when nothing was judged',
});
const Operation = Type.Union([
  Type.Literal('item-inquiry'),
  Type.Literal('place-order'),
  Type.Literal('invoice'),
  Type.Literal('statement'),
]);

const RuleFigure = Type.Object(
  {
    rule: Type.String(),
    broken: Type.Integer({ minimum: 0, description: 'replies that broke it (once per reply)' }),
    rate: Rate,
  },
  { additionalProperties: false },
);

const OperationFigure = Type.Object(
  {
    operation: Operation,
    judged: Type.Integer({ minimum: 0, description: 'replies judged: the denominator' }),
    nonconforming: Type.Integer({ minimum: 0, description: 'replies that broke at least one rule' }),
    rate: Rate,
    rules: Type.Array(RuleFigure, { description: 'every rule of the operation (and reply.schema), broken or not' }),
  },
  { additionalProperties: false },
);

const WindowFigure = Type.Object(
  {
    from: Type.Union([Type.String(), Type.Null()], { description: 'the first minute the window counts (ISO 8601)' }),
    operations: Type.Array(OperationFigure),
  },
  { additionalProperties: false },
);

const memberFields = {
  member: Type.String(),
  status: Type.Union([Type.String(), Type.Null()], {
    description: "the member's status; null when no longer in the directory",
  }),
  certificate: Type.Union([
    Type.Object(
      { id: Type.Integer(), issued_at: Type.String(), contract_version: Type.String() },
      { additionalProperties: false },
    ),
    Type.Null(),
  ]),
  windows: Type.Object(
    { hour: WindowFigure, day: WindowFigure, week: WindowFigure, since_certificate: WindowFigure },
    { additionalProperties: false },
  ),
  samples: Type.Integer({ minimum: 0, description: "exchanges kept for the member's replay file" }),
};

const MemberConformanceSchema = Type.Object(memberFields, { additionalProperties: false });

export const ConformanceReportReply = Type.Object(
  { generated_at: Type.String(), members: Type.Array(MemberConformanceSchema) },
  { title: 'Conformance — all members', additionalProperties: false },
);

export const MemberConformanceReply = Type.Object(
  { generated_at: Type.String(), ...memberFields },
  { title: 'Conformance — one member', additionalProperties: false },
);

export const ProductionReplayReply = Type.Object(ProductionReplayFile.properties, {
  title: 'Conformance — replay file',
});

// Drift checks, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _conformanceShapesMatch: [
  Same<Static<typeof ConformanceReportReply>, ConformanceReport>,
  Same<Static<typeof MemberConformanceReply>, MemberConformance & { generated_at: string }>,
] = [true, true];
