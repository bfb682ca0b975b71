import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// A cap on the client connections of one or more servers that share a process's descriptors.
// server.maxConnections would refuse every newcomer once full, so a flood of clients that
// connect and never finish a request locks everyone out. Here a newcomer at the cap closes the
// oldest connection that is doing no work: idle keep-alive or headers still coming first, then
// a request whose body is still coming; only when every connection has a request being
// answered is the newcomer itself closed.

interface Connection {
  /** The request being answered on it, if any. */
  request: IncomingMessage | undefined;
}

export interface ConnectionGuard {
  /** Counts `server`'s connections against the cap. */
  watch(server: Server): void;
  /** Client connections open now, every watched server together. */
  readonly open: number;
  readonly cap: number;
  /** Connections closed to make room (and newcomers closed because none could be). */
  readonly shed: number;
}

export function createConnectionGuard(cap: number): ConnectionGuard {
  // Insertion order is connection order: the first entries are the oldest.
  const connections = new Map<Socket, Connection>();
  let shed = 0;

  const drop = (socket: Socket) => {
    connections.delete(socket);
    shed++;
    socket.destroy();
  };

  /** The oldest connection but `newcomer` that is doing no work, or else whose request has not fully arrived. */
  function victim(newcomer: Socket): Socket | undefined {
    let unfinished: Socket | undefined;
    for (const [socket, connection] of connections) {
      if (socket === newcomer) continue;
      if (connection.request === undefined) return socket;
      if (unfinished === undefined && !connection.request.complete) unfinished = socket;
    }
    return unfinished;
  }

  function onConnection(socket: Socket): void {
    connections.set(socket, { request: undefined });
    socket.once('close', () => connections.delete(socket));
    if (connections.size <= cap) return;
    drop(victim(socket) ?? socket);
  }

  function onRequest(request: IncomingMessage, response: ServerResponse): void {
    const connection = connections.get(request.socket);
    if (connection === undefined) return;
    connection.request = request;
    const done = () => {
      if (connection.request === request) connection.request = undefined;
    };
    response.once('finish', done);
    response.once('close', done);
  }

  return {
    watch(server) {
      server.on('connection', onConnection);
      server.on('request', onRequest);
    },
    get open() {
      return connections.size;
    },
    cap,
    get shed() {
      return shed;
    },
  };
}
