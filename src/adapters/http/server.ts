import http from 'node:http';
import { createHttpTerminator } from 'http-terminator';
import type Koa from 'koa';

export interface RunningServer {
  url: string;
  /** Stops accepting connections, lets requests in flight finish, closes idle keep-alive sockets. */
  stop(): Promise<void>;
}

export async function listen(app: Koa, port: number, host: string): Promise<RunningServer> {
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const terminator = createHttpTerminator({ server, gracefulTerminationTimeout: 10_000 });
  const address = server.address() as { port: number };
  return { url: `http://${host}:${address.port}`, stop: () => terminator.terminate() };
}
