import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import type Koa from 'koa';

export interface RunningServer {
  url: string;
  /**
   * Stops accepting connections at once, answers every request already accepted (the last one on each
   * connection with `Connection: close`), closes idle keep-alive connections, and resolves once every handler
   * has returned: afterwards nothing uses the database any more.
   */
  stop(): Promise<void>;
}

/** How long a kept-alive connection that is idle at shutdown may still send one last request. */
const IDLE_GRACE_MS = 1_000;
/** After this, whatever is still open is cut. */
const DRAIN_TIMEOUT_MS = 10_000;

/** What the server knows of one connection: the responses it still owes, newest last. */
interface Connection {
  owed: ServerResponse[];
  idleTimer: NodeJS.Timeout | null;
}

export async function listen(app: Koa, port: number, host: string): Promise<RunningServer> {
  const handle = app.callback();
  const connections = new Map<Socket, Connection>();
  let handlersRunning = 0;
  let stopping = false;

  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const connection = connections.get(req.socket);
    if (connection) {
      connection.owed.push(res);
      res.once('close', () => settled(req.socket, connection, res));
      if (stopping) closeAfterNewest(connection, res);
    }
    handlersRunning++;
    void handle(req, res).finally(() => handlersRunning--);
  });
  server.keepAliveTimeout = 5_000;

  server.on('connection', (socket: Socket) => {
    const connection: Connection = { owed: [], idleTimer: null };
    connections.set(socket, connection);
    socket.once('close', () => {
      if (connection.idleTimer) clearTimeout(connection.idleTimer);
      connections.delete(socket);
    });
    if (stopping) closeWhenIdle(socket, connection);
  });

  // Requests that Node's parser refuses (headers too large, a malformed request line) get the contract's JSON
  // error body rather than an empty one.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const connection = connections.get(socket);
    const midResponse = connection?.owed.some((res) => res.headersSent) ?? false;
    if (error.code === 'ECONNRESET' || !socket.writable || midResponse) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(error.code));
  });

  function settled(socket: Socket, connection: Connection, res: ServerResponse): void {
    connection.owed.splice(connection.owed.indexOf(res), 1);
    if (stopping && connection.owed.length === 0) closeWhenIdle(socket, connection);
  }

  /**
   * The connection closes after its newest response: earlier ones (pipelined) are still sent first. Decided when
   * the headers go out, so that a request arriving meanwhile becomes the one that closes.
   */
  function closeAfterNewest(connection: Connection, res: ServerResponse): void {
    if (res.headersSent) return;
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      if (connection.owed.at(-1) === this) this.setHeader('Connection', 'close');
      return writeHead.apply(this, args);
    } as ServerResponse['writeHead'];
  }

  /** An idle kept-alive connection may still be carrying a request our way: give it a moment, then end it. */
  function closeWhenIdle(socket: Socket, connection: Connection): void {
    if (connection.idleTimer) clearTimeout(connection.idleTimer);
    connection.idleTimer = setTimeout(() => {
      if (connection.owed.length === 0) socket.end();
    }, IDLE_GRACE_MS);
    connection.idleTimer.unref();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as { port: number };

  return {
    url: `http://${host}:${address.port}`,
    async stop() {
      stopping = true;
      // net.Server's close, not http.Server's: that one would also close idle kept-alive connections at once,
      // and a request already on its way on one of them would be cut (a reset the client cannot safely retry).
      const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
      for (const [socket, connection] of connections) {
        if (connection.owed.length === 0) closeWhenIdle(socket, connection);
        else connection.owed.forEach((res) => closeAfterNewest(connection, res));
      }
      const deadline = setTimeout(() => {
        for (const socket of connections.keys()) socket.destroy();
      }, DRAIN_TIMEOUT_MS);
      await closed;
      clearTimeout(deadline);
      // A handler can outlive its socket (the client went away): wait for it before the database closes.
      const end = Date.now() + DRAIN_TIMEOUT_MS;
      while (handlersRunning > 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
    },
  };
}

/** A complete HTTP/1.1 response, written straight to the socket, for requests that never reached the app. */
function rawErrorResponse(code: string | undefined): string {
  const [status, body] =
    code === 'HPE_HEADER_OVERFLOW'
      ? [431, { error: 'RequestHeaderFieldsTooLarge', message: 'The request headers are too large' }]
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, { error: 'RequestTimeout', message: 'The request did not arrive in time' }]
        : [400, { error: 'BadRequest', message: 'The request is not valid HTTP' }];
  const json = JSON.stringify(body);
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(json)}\r\n` +
    'Connection: close\r\n\r\n' +
    json
  );
}
