import { packagePath } from '../../shared/package-root';

// Who the contract is between, and where it lives. The broker, the verifier and the
// publishing scripts all key on these names.
export const CONSUMER = 'federated-gateway';
export const PROVIDER = 'seller-system';
export const PACT_FILE_NAME = `${CONSUMER}-${PROVIDER}.json`;
export const PACTS_DIR = `${packagePath('contracts', 'pacts')}/`;
export const PACT_FILE = `${PACTS_DIR}${PACT_FILE_NAME}`;
/** The path the contract's requests use; the kit's proxy maps it onto the vendor's real seller URL. */
export const SELLER_PATH = '/seller';
