import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
}

/**
 * A webhook endpoint on 127.0.0.1: records every request and answers with the next status of `answers`
 * (200 once they run out), or never answers while `hang` is set.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  answers: number[] = [];
  hang = false;
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = this.answers.shift() ?? 200;
      this.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString(), status });
      if (this.hang) return;
      response.writeHead(status, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `count` requests arrived in all, or rejects after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedDelivery[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${this.received.length}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return this.received;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
