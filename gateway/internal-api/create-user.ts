import type { UsersCreateReply } from '../../contracts/index';
import type { Store } from '../store/store';
import type { Directory } from '../directory/directory';
import type { AddressValidator } from '../address/address-validator';
import type { Clock } from '../clock';
import { checkCreateUser } from './create-user-checks';
import { insertUser } from './user-writer';

// POST /internal/users/create as a function: check everything, write in one transaction,
// then let the rest of the process know (directory cache, mail dispatcher).

export interface CreateUserDeps {
  store: Store;
  addressValidator: AddressValidator;
  clock: Clock;
  /** Invalidated after a creation so the gateway in this process sees the user at once. */
  directory?: Pick<Directory, 'invalidate'>;
  /** Called after the commit, e.g. to wake the outbox dispatcher. */
  onCreated?: (user: UsersCreateReply) => void;
}

export async function createUser(body: unknown, deps: CreateUserDeps): Promise<UsersCreateReply> {
  const checked = await checkCreateUser(body, { db: deps.store, addressValidator: deps.addressValidator });
  const userId = await insertUser(deps.store, checked, new Date(deps.clock()));
  const reply: UsersCreateReply = { username: checked.request.username, user_id: userId };
  deps.directory?.invalidate();
  deps.onCreated?.(reply);
  return reply;
}
