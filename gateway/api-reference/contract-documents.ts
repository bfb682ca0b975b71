import { internalApiDocument } from './internal-api-document';
import { openApiDocument } from './openapi-document';
import { sellerApiDocument } from '../../contracts/seller-api-document';

// The buyer, internal and seller API documents as the contract's release carries them
// (contracts/openapi/, written by `npm run schemas`): a git ref or a directory of a release then
// holds them, so `compat` and the contract policy can compare a buyer's side (and the seller
// API's) across releases without building an old gateway. No machine's server URL: the same
// bytes on every machine.

export const CONTRACT_API_DOCUMENTS = {
  'buyer.openapi.json': () => openApiDocument(),
  'internal.openapi.json': () => internalApiDocument(),
  'seller.openapi.json': () => sellerApiDocument(),
} as const;

export function renderContractApiDocuments(): Map<string, string> {
  return new Map(
    Object.entries(CONTRACT_API_DOCUMENTS).map(([name, build]) => [name, `${JSON.stringify(build(), null, 2)}\n`]),
  );
}
