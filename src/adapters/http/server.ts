import http from 'node:http';
import { createHttpTerminator } from 'http-terminator';
import type Koa from 'koa';

export interface RunningServer {
  url: string;
  /**
   * Stops accepting connections, lets requests in flight finish (their handlers included, not only their
   * sockets), closes idle keep-alive sockets. Afterwards nothing uses the database any more.
   */
  stop(): Promise<void>;
}

const DRAIN_TIMEOUT_MS = 15_000;

export async function listen(app: Koa, port: number, host: string): Promise<RunningServer> {
  const handle = app.callback();
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    void handle(req, res).finally(() => inFlight--);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const terminator = createHttpTerminator({ server, gracefulTerminationTimeout: 10_000 });
  const address = server.address() as { port: number };
  return {
    url: `http://${host}:${address.port}`,
    async stop() {
      await terminator.terminate();
      // A handler can outlive its socket (the client went away): wait for it before the database closes.
      const deadline = Date.now() + DRAIN_TIMEOUT_MS;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    },
  };
}
