// The directory's public face.
export type * from './directory';
export { createDirectory, DEFAULT_DIRECTORY_TTL_MS, type DirectoryOptions } from './create-directory';
export { storeDirectory } from './store-directory';
export { registerKey, listKeys, revokeKey, KeyCommandError, type RegisterKeyInput, type KeyListing } from './api-keys';
