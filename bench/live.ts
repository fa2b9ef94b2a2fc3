/**
 * The live scenario of `npm run bench` (issue 15): 1,000 notification streams open on one server process, what
 * they cost (memory per stream, CPU while idle), and how long a change takes to reach a stream and a webhook
 * while the service takes replies at full speed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { cpuMicros, rssMb } from './proc.js';
import { replyText } from './reply-text.js';

export interface LiveFigures {
  streams: number;
  rssKbPerStream: number;
  idleCpuMsPer10s: number;
  /** The same reply load three times: streams only; a webhook on reply.created; a webhook that never answers. */
  phases: LivePhase[];
  notificationsReceived: number;
  webhookDeliveries: number;
}

export interface LivePhase {
  name: string;
  writesPerSecond: number;
  writeP99: number;
  streamDelayMs: Percentiles;
  webhookDelayMs: Percentiles | null;
  probes: number;
}

interface Percentiles {
  p50: number;
  p99: number;
  max: number;
}

interface StreamUser {
  login: string;
  token: string;
}

/** A started bench server: where it listens and its process id (for /proc). */
export interface LiveTarget {
  url: string;
  pid: number;
}

interface LoadSettings {
  durationSeconds: number;
  connections: number;
}

/**
 * Every user of `users` gets a stream. The load (replies by the first user on random topics, each mentioning
 * another user at random) runs for `durationSeconds` per phase, with a probe reply every 100 ms mentioning the
 * second user, timed from its response to its event on that user's stream (and at the webhook's receiver).
 */
export async function measureLive(
  target: LiveTarget,
  databaseUrl: string,
  fixtures: { topicIds: number[]; users: StreamUser[] },
  settings: LoadSettings,
): Promise<LiveFigures> {
  const receiver = await WebhookEndpoint.start();
  const streams: SseClient[] = [];
  let webhookId: number | null = null;
  try {
    const rssBefore = await rssKb(target.pid);
    for (const user of fixtures.users)
      streams.push(await SseClient.open(`${target.url}/api/v3/notifications/stream`, user.token));
    await sleep(1_000);
    const rssAfter = await rssKb(target.pid);

    const cpuBefore = await cpuMicros(target.pid);
    await sleep(10_000);
    const idleCpuMs = ((await cpuMicros(target.pid)) - cpuBefore) / 1000;

    const phases = [await loadPhase('streams only', target, fixtures, streams, null, settings)];
    webhookId = await subscribe(databaseUrl, receiver.url);
    phases.push(await loadPhase('and a webhook on reply.created', target, fixtures, streams, receiver, settings));
    receiver.hang = true;
    phases.push(await loadPhase('and that webhook never answering', target, fixtures, streams, null, settings));
    return {
      streams: streams.length,
      rssKbPerStream: Math.round((rssAfter - rssBefore) / streams.length),
      idleCpuMsPer10s: Math.round(idleCpuMs),
      phases,
      notificationsReceived: streams.reduce((sum, stream) => sum + stream.notifications, 0),
      webhookDeliveries: receiver.count,
    };
  } finally {
    for (const stream of streams) stream.close();
    // Deleting it drops its deliveries: the retries still queued find nothing to send.
    if (webhookId !== null) await unsubscribe(databaseUrl, webhookId);
    await receiver.stop();
  }
}

async function loadPhase(
  name: string,
  target: LiveTarget,
  fixtures: { topicIds: number[]; users: StreamUser[] },
  streams: SseClient[],
  receiver: WebhookEndpoint | null,
  settings: LoadSettings,
): Promise<LivePhase> {
  const [writer, probed, ...others] = fixtures.users;
  const random = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;
  const replyPath = () => `/api/v3/topics/${random(fixtures.topicIds)}/replies`;
  const headers = { authorization: `Bearer ${writer!.token}`, 'content-type': 'application/json' };
  const load = autocannon({
    url: target.url,
    connections: settings.connections,
    duration: settings.durationSeconds,
    requests: [
      {
        method: 'POST',
        path: replyPath(),
        headers,
        setupRequest: (request) => ({
          ...request,
          path: replyPath(),
          body: JSON.stringify({ body: replyText(random(others).login) }),
        }),
      },
    ],
  });

  const streamDelays: number[] = [];
  const webhookDelays: number[] = [];
  const probeStream = streams[1]!;
  const deadline = Date.now() + (settings.durationSeconds - 1) * 1000;
  while (Date.now() < deadline) {
    const response = await fetch(`${target.url}${replyPath()}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ body: replyText(probed!.login) }),
    });
    const answeredAt = performance.now();
    if (!response.ok) continue;
    const { reply } = (await response.json()) as { reply: { id: number } };
    void probeStream.waitFor(reply.id).then((at) => streamDelays.push(at - answeredAt));
    if (receiver) void receiver.waitFor(reply.id).then((at) => webhookDelays.push(at - answeredAt));
    await sleep(100);
  }
  const result = await load;
  await sleep(2_000);
  return {
    name,
    writesPerSecond: Math.round(result.requests.average),
    writeP99: result.latency.p99,
    streamDelayMs: percentiles(streamDelays),
    webhookDelayMs: receiver ? percentiles(webhookDelays) : null,
    probes: streamDelays.length,
  };
}

function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN);
  return { p50: at(0.5), p99: at(0.99), max: Math.round(sorted.at(-1) ?? NaN) };
}

async function rssKb(pid: number): Promise<number> {
  return (await rssMb(pid)) * 1024;
}

async function subscribe(databaseUrl: string, url: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number }>(
      `insert into webhooks (url, events, secret) values ($1, '{reply.created}', 'bench secret') returning id`,
      [url],
    );
    return rows[0]!.id;
  } finally {
    await client.end();
  }
}

async function unsubscribe(databaseUrl: string, id: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('delete from webhooks where id = $1', [id]).finally(() => client.end());
}

/** Resolves the first time `id` turns up, with the moment it did. */
class Arrivals {
  private readonly seen = new Map<number, number>();
  private readonly waiting = new Map<number, (at: number) => void>();

  arrived(id: number): void {
    const at = performance.now();
    const resolve = this.waiting.get(id);
    if (resolve) {
      this.waiting.delete(id);
      resolve(at);
    } else if (!this.seen.has(id)) this.seen.set(id, at);
  }

  waitFor(id: number): Promise<number> {
    const at = this.seen.get(id);
    if (at !== undefined) return Promise.resolve(at);
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }
}

/** One notification stream: counts notifications, and notes when each reply a notification is about arrived. */
class SseClient {
  notifications = 0;
  private readonly arrivals = new Arrivals();

  private constructor(private readonly request: http.ClientRequest) {}

  static open(url: string, token: string): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const request = http.get(`${url}?access_token=${token}`, { agent: false });
      const client = new SseClient(request);
      request.once('error', reject);
      request.once('response', (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            client.frame(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        });
        resolve(client);
      });
    });
  }

  waitFor(replyId: number): Promise<number> {
    return this.arrivals.waitFor(replyId);
  }

  close(): void {
    this.request.destroy();
  }

  private frame(text: string): void {
    if (!text.includes('event: notification')) return;
    this.notifications++;
    const data = /^data: (.*)$/m.exec(text)?.[1];
    if (!data) return;
    const notification = JSON.parse(data) as { reply?: { id: number } | null; mention?: { id: number } | null };
    const id = notification.mention?.id ?? notification.reply?.id;
    if (id !== undefined) this.arrivals.arrived(id);
  }
}

/** The webhook's receiver, in this process: notes when each reply's delivery arrived. */
class WebhookEndpoint {
  count = 0;
  /** Set: requests are read and never answered (a dead endpoint; the server gives up after 10 s). */
  hang = false;
  private readonly arrivals = new Arrivals();
  private readonly server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      this.count++;
      this.arrivals.arrived((JSON.parse(body) as { data: { id: number } }).data.id);
      if (!this.hang) response.end();
    });
  });

  static async start(): Promise<WebhookEndpoint> {
    const endpoint = new WebhookEndpoint();
    await new Promise<void>((resolve) => endpoint.server.listen(0, '127.0.0.1', resolve));
    return endpoint;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  waitFor(replyId: number): Promise<number> {
    return this.arrivals.waitFor(replyId);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
