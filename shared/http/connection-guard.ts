import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// A cap on the client connections of one or more servers that share a process's descriptors.
// server.maxConnections would refuse every newcomer once full, so a flood of clients that
// connect and never finish a request locks everyone out. Here a newcomer at the cap closes the
// oldest connection that is doing no work: idle keep-alive or headers still coming first, then
// a request whose body is still coming; only when every connection has a request being
// answered is the newcomer itself closed.

interface Connection {
  /** The latest request on it and its response: being answered until the response has finished. */
  request: IncomingMessage | undefined;
  response: ServerResponse | undefined;
}

/** Whether a connection is answering a request now (judged when room is needed, so a request costs no listeners). */
const answering = (c: Connection): c is Connection & { request: IncomingMessage } =>
  c.request !== undefined && c.response?.writableFinished === false;

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
      if (!answering(connection)) return socket;
      if (unfinished === undefined && !connection.request.complete) unfinished = socket;
    }
    return unfinished;
  }

  function onConnection(socket: Socket): void {
    connections.set(socket, { request: undefined, response: undefined });
    socket.once('close', () => connections.delete(socket));
    if (connections.size <= cap) return;
    drop(victim(socket) ?? socket);
  }

  function onRequest(request: IncomingMessage, response: ServerResponse): void {
    const connection = connections.get(request.socket);
    if (connection === undefined) return;
    connection.request = request;
    connection.response = response;
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
