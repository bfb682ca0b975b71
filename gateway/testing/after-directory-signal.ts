import type { Store } from '../store/store';

/**
 * Runs a directory write that sends the store's change signal (registerKey, revokeKey, …) and
 * waits until that signal has come back to this process. Its echo drops every cached
 * directory entry whenever it arrives; a test that then asserts on a cached entry must not let
 * it arrive in the middle. A store without the capability returns at once.
 */
export async function afterDirectorySignal<T>(store: Store, write: () => Promise<T>, timeoutMs = 5_000): Promise<T> {
  if (store.onDirectoryChanged === undefined) return write();
  let heard = 0;
  const stop = store.onDirectoryChanged(() => heard++);
  try {
    const result = await write();
    const deadline = Date.now() + timeoutMs;
    while (heard === 0) {
      if (Date.now() > deadline)
        throw new Error(`the directory change signal did not come back within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return result;
  } finally {
    stop();
  }
}
