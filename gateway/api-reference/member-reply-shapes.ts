// JSON Schemas of the internal API's member replies (/internal/members), for its OpenAPI
// document. Their TypeScript types live with the writer (directory/members.ts); the assignments
// at the bottom make typecheck fail when the two drift apart.
import { Type, type Static } from '@sinclair/typebox';
import { StateMapFile } from '../../contracts/state-map-schema';
import {
  MEMBER_ACTIONS,
  type AccountView,
  type CertificateView,
  type LocationView,
  type MemberChange,
  type MemberView,
} from '../directory/members';

const Timestamp = Type.String({ description: 'ISO 8601 UTC' });
const Status = Type.Union([Type.Literal('pending'), Type.Literal('live'), Type.Literal('suspended')], {
  description: 'pending: not yet certified; live: serves buyers; suspended: stopped by an operator',
});

const memberProperties = {
  id: Type.String(),
  name: Type.String(),
  sellerUrl: Type.String(),
  sellerAuth: Type.Object(
    {
      kind: Type.Union([Type.Literal('none'), Type.Literal('bearer'), Type.Literal('basic')]),
      username: Type.Optional(Type.String()),
    },
    { additionalProperties: false, description: 'The kind (and a basic username): secrets are never shown' },
  ),
  integration: Type.Union([Type.String(), Type.Null()]),
  timeoutMs: Type.Integer(),
  replyMode: Type.Union([Type.Literal('strict'), Type.Literal('lenient')]),
  status: Status,
  stateMap: Type.Union([StateMapFile, Type.Null()]),
  slos: Type.Union([Type.Array(Type.String()), Type.Null()]),
};

export const MemberReply = Type.Object(memberProperties, { title: 'Member — reply', additionalProperties: false });
export const MemberListReply = Type.Array(MemberReply, { title: 'Member list — reply' });

export const LocationReply = Type.Object(
  { id: Type.String(), memberId: Type.String(), description: Type.String(), type: Type.Integer() },
  { title: 'Location — reply', additionalProperties: false },
);
export const LocationListReply = Type.Array(LocationReply, { title: 'Location list — reply' });

export const AccountReply = Type.Object(
  {
    memberId: Type.String(),
    accountId: Type.String(),
    description: Type.String(),
    standing: Type.Union([Type.Literal('good'), Type.Literal('on_hold'), Type.Literal('credit_limit')]),
  },
  { title: 'Account — reply', additionalProperties: false },
);
export const AccountListReply = Type.Array(AccountReply, { title: 'Account list — reply' });

const Certificate = Type.Object(
  {
    id: Type.Integer(),
    verdict: Type.Union([Type.Literal('passed'), Type.Literal('failed')]),
    contractVersion: Type.String(),
    contractMajor: Type.Integer(),
    issuedAt: Timestamp,
  },
  { additionalProperties: false, description: 'The newest certificate, passed or failed' },
);

export const MemberDetailReply = Type.Object(
  {
    ...memberProperties,
    locations: Type.Array(LocationReply),
    accounts: Type.Array(AccountReply),
    certificate: Type.Union([Certificate, Type.Null()]),
  },
  { title: 'Member detail — reply', additionalProperties: false },
);

const Action = Type.Union(MEMBER_ACTIONS.map((a) => Type.Literal(a)));
export const MemberChangesReply = Type.Array(
  Type.Object(
    {
      id: Type.Integer(),
      memberId: Type.String(),
      actor: Type.String({ description: 'Who: the X-Operator header, or $USER for npm run members' }),
      action: Action,
      detail: Type.Record(Type.String(), Type.Unknown(), {
        description: 'What: the fields before and after (secrets as a mark), the reason of a suspension',
      }),
      at: Timestamp,
    },
    { additionalProperties: false },
  ),
  { title: 'Member changes — reply' },
);

// Drift checks, both ways: each schema's static type and the writer's type accept each other.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
type Loose<T> = Omit<T, 'stateMap'>;
const _memberShapesMatchWriter: [
  Same<Loose<Static<typeof MemberReply>>, Loose<MemberView>>,
  Same<Static<typeof LocationReply>, LocationView>,
  Same<Static<typeof AccountReply>, AccountView>,
  Same<Static<typeof Certificate>, CertificateView>,
  Same<Omit<Static<typeof MemberChangesReply>[number], 'action'>, Omit<MemberChange, 'action'>>,
  Same<Loose<Omit<Static<typeof MemberDetailReply>, 'locations' | 'accounts' | 'certificate'>>, Loose<MemberView>>,
] = [true, true, true, true, true, true];
