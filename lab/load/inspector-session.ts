import { WebSocket } from 'undici';

// A DevTools-protocol session with a child started with --inspect=127.0.0.1:0 (loopback, a port
// the OS picks), so a bench can force a full garbage collection in the gateway and read its
// memory without any hook in the gateway's code: a heap that has not been collected yet is
// not a leak, and only memory still held after a full collection says one.

export interface InspectorSession {
  /** A full (mark-compact) collection, as `global.gc()` would. */
  collectGarbage(): Promise<void>;
  /** process.memoryUsage() of the child, in bytes. */
  memoryUsage(): Promise<NodeJS.MemoryUsage>;
  close(): void;
}

/** The debugger URL from the child's output ("Debugger listening on ws://…"). */
export function inspectorUrl(output: string): string | undefined {
  return /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];
}

export async function openInspectorSession(url: string): Promise<InspectorSession> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`cannot open the inspector session at ${url}`)), {
      once: true,
    });
  });
  let nextId = 0;
  const pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return; // events
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) waiter?.reject(new Error(message.error.message));
    else waiter?.resolve(message.result);
  });
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    async collectGarbage() {
      await call('HeapProfiler.collectGarbage');
    },
    async memoryUsage() {
      const result = (await call('Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      })) as {
        result: { value: string };
      };
      return JSON.parse(result.result.value) as NodeJS.MemoryUsage;
    },
    close() {
      socket.close();
    },
  };
}
