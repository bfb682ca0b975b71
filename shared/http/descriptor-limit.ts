import { readFileSync } from 'node:fs';

// How many file descriptors this process may open (its soft RLIMIT_NOFILE): every connection,
// store file, seller call and log file takes one, and past the limit accept() fails and clients
// get resets on every port. Linux says so in /proc/self/limits; elsewhere the common default.

export const FALLBACK_DESCRIPTOR_LIMIT = 1_024;

/** The soft "Max open files" limit, or FALLBACK_DESCRIPTOR_LIMIT when it cannot be read (not Linux, unlimited). */
export function descriptorLimit(limitsFile = '/proc/self/limits'): number {
  try {
    const line = readFileSync(limitsFile, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.slice('Max open files'.length).trim().split(/\s+/)[0]);
    return Number.isSafeInteger(soft) && soft > 0 ? soft : FALLBACK_DESCRIPTOR_LIMIT;
  } catch {
    return FALLBACK_DESCRIPTOR_LIMIT;
  }
}

/**
 * Descriptors left for the process's own work: a quarter of the limit, at least 64 — the store
 * (PGlite's files or pg's pool), seller calls (a pool of up to 64 per member in use), its own
 * health route, logs.
 */
export const reservedDescriptors = (limit: number): number => Math.max(64, Math.ceil(limit / 4));

/** The default cap on client connections, all servers of the process together. */
export const defaultMaxConnections = (limit = descriptorLimit()): number =>
  Math.max(1, limit - reservedDescriptors(limit));
