import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../shared/package-root';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { PACT_FILE_NAME } from './pact/pact-names';
import { SERVICE_OF } from './schemas/index';
import { replyComponent, requestComponent, SELLER_OPERATIONS } from './seller-api-document';
import { loadFixture } from './payload-examples';

// What a vendor's code generator makes of the committed seller API document: openapi-typescript
// writes its types, and the TypeScript compiler (strict, in-process) checks every seller fixture
// and every request and reply of the pact, each assigned as a literal to its generated type, so
// a field the document leaves out or mistypes is an error (excess properties included).

const scratch = useTemporaryDirectory('seller-api-types');
const SOURCE = packagePath('contracts/openapi/seller.openapi.json');

interface Assignment {
  name: string;
  type: string;
  value: unknown;
}

async function generatedTypes(): Promise<string> {
  const ast = await openapiTS(new URL(`file://${SOURCE}`));
  const file = join(scratch.path, 'seller-api.d.ts');
  writeFileSync(file, astToString(ast));
  return file;
}

/** The diagnostics of a strict type-check of `assignments` against the generated types. */
function typeCheck(typesFile: string, assignments: Assignment[]): string[] {
  const lines = [
    "import type { components } from './seller-api';",
    'type S = components["schemas"];',
    ...assignments.map(
      (a, i) => `// ${a.name}\nexport const v${i}: S[${JSON.stringify(a.type)}] = ${JSON.stringify(a.value)};`,
    ),
  ];
  const checked = join(scratch.path, 'checked.ts');
  writeFileSync(checked, `${lines.join('\n')}\n`);
  const program = ts.createProgram([checked, typesFile], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const OPERATION_OF = Object.fromEntries(SELLER_OPERATIONS.map((o) => [SERVICE_OF[o], o]));

function pactAssignments(): Assignment[] {
  const pact = JSON.parse(readFileSync(packagePath(`contracts/pacts/${PACT_FILE_NAME}`), 'utf8')) as {
    interactions: {
      description: string;
      request: { body: { content: { service: string } } };
      response: { body: { content: unknown } };
    }[];
  };
  return pact.interactions.flatMap((i) => {
    const o = OPERATION_OF[i.request.body.content.service];
    return [
      { name: `${i.description} (request)`, type: 'SellerRequest', value: i.request.body.content },
      { name: `${i.description} (request)`, type: requestComponent(o), value: i.request.body.content },
      { name: `${i.description} (reply)`, type: replyComponent(o), value: i.response.body.content },
    ];
  });
}

describe('types openapi-typescript generates from the seller API document', () => {
  let typesFile = '';

  it('hold every seller fixture and every request and reply of the pact', async () => {
    typesFile = await generatedTypes();
    const types = readFileSync(typesFile, 'utf8');
    for (const o of SELLER_OPERATIONS) {
      expect(types).toContain(`${requestComponent(o)}: {`);
      expect(types).toContain(`${replyComponent(o)}: {`);
    }
    const fixtures = SELLER_OPERATIONS.flatMap((o) => [
      { name: `${o} request`, type: requestComponent(o), value: loadFixture(o, 'seller-request') as unknown },
      { name: `${o} request`, type: 'SellerRequest', value: loadFixture(o, 'seller-request') as unknown },
      { name: `${o} reply`, type: replyComponent(o), value: loadFixture(o, 'seller-reply') as unknown },
      { name: `${o} reply`, type: 'SellerReply', value: loadFixture(o, 'seller-reply') as unknown },
    ]);
    const pact = pactAssignments();
    expect(pact.length).toBeGreaterThan(30);
    expect(typeCheck(typesFile, [...fixtures, ...pact])).toEqual([]);
  });

  it('refuse a reply without a required field and a request with a field the contract does not know', () => {
    const { order_number: _, ...reply } = loadFixture('place-order', 'seller-reply') as Record<string, unknown>;
    const request = { ...(loadFixture('invoice', 'seller-request') as object), invoice_numbr: 'INV-1' };
    const errors = typeCheck(typesFile, [
      { name: 'no order number', type: replyComponent('place-order'), value: reply },
      { name: 'a typo', type: requestComponent('invoice'), value: request },
    ]);
    expect(errors).toEqual([expect.stringMatching(/order_number/), expect.stringMatching(/invoice_numbr/)]);
  });
});
