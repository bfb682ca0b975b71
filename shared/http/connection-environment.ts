import { Type } from '@sinclair/typebox';
import { EnvInteger, Optional, readEnvironment } from '../environment';
import { defaultMaxConnections } from './descriptor-limit';

// How every server the toolkit starts (gateway, internal API, mock seller, rules proxy, kit,
// record) treats its clients' connections: listen() reads these, so one set of variables holds
// for all the servers of a process, which share its descriptors.

export const CONNECTION_ENVIRONMENT = Type.Object({
  HTTP_MAX_CONNECTIONS: Optional(
    EnvInteger({
      minimum: 1,
      defaultText: 'descriptor limit − max(64, limit / 4)',
      description:
        "client connections open at once, all of the process's servers together; the default leaves a quarter of the process's " +
        'descriptor limit (ulimit -n, read from /proc/self/limits; 1024 if unknown) for the store, seller calls and the health route. ' +
        'At the cap a new connection closes the oldest idle keep-alive or unfinished one (headers, then body) without an answer; ' +
        'if every connection has a request being answered, the new one is closed at once',
    }),
  ),
  HTTP_HEADERS_TIMEOUT_MS: EnvInteger({
    default: 10_000,
    minimum: 100,
    description:
      "how long a client may take to send a request's headers; then it gets 408 and the connection is closed",
  }),
  HTTP_REQUEST_TIMEOUT_MS: EnvInteger({
    default: 30_000,
    minimum: 100,
    description:
      'how long a client may take to send a whole request, headers and body (at least HTTP_HEADERS_TIMEOUT_MS); then 408 and closed',
  }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: EnvInteger({
    default: 65_000,
    minimum: 100,
    description:
      'how long an idle keep-alive connection stays open; longer than a load balancer idle timeout (60 s is common)',
  }),
});

export interface ConnectionSettings {
  maxConnections: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/** The settings from the environment; throws EnvironmentError naming a variable set to something unusable. */
export function connectionSettings(env: NodeJS.ProcessEnv = process.env): ConnectionSettings {
  const values = readEnvironment(CONNECTION_ENVIRONMENT, env);
  return {
    maxConnections: values.HTTP_MAX_CONNECTIONS ?? defaultMaxConnections(),
    // Node refuses a headers timeout longer than the request timeout.
    headersTimeoutMs: Math.min(values.HTTP_HEADERS_TIMEOUT_MS, values.HTTP_REQUEST_TIMEOUT_MS),
    requestTimeoutMs: values.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: values.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  };
}

/**
 * The timeouts from `env`, for a server started with an environment of its own (not
 * process.env): listen() would read process.env's. The connection cap stays the process's
 * one (HTTP_MAX_CONNECTIONS of process.env), shared by all its servers, as listen() keeps it.
 */
export function connectionTimeouts(env: NodeJS.ProcessEnv): Omit<ConnectionSettings, 'maxConnections'> {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = connectionSettings(env);
  return { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs };
}
