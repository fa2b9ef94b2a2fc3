import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { WebhookTransport } from '../../application/webhooks/webhooks.js';
import type { WebhookEvent } from '../../domain/events.js';

/** Contract §13: a delivery counts as done on a 2xx within this time. */
export const DELIVERY_TIMEOUT_MS = 10_000;

const PRIVATE_HINT = 'set WEBHOOKS_ALLOW_PRIVATE=true to deliver to private addresses';

/** `sha256=<hex HMAC-SHA256 of the body with the secret>`, as GitHub signs its deliveries. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * POSTs deliveries with node's http client, through agents that check the address each connection really goes
 * to (after DNS, so a name that resolves to 127.0.0.1 or 10.x is refused as well: SSRF) unless private
 * addresses are allowed. Redirects are not followed: a 3xx is a failed try, as at GitHub.
 */
export class HttpWebhookTransport implements WebhookTransport {
  private readonly agents: { 'http:': http.Agent; 'https:': https.Agent };

  constructor(private readonly options: { allowPrivate: boolean; userAgent: string; timeoutMs?: number }) {
    const filter = { allowPrivateIPAddress: options.allowPrivate, allowMetaIPAddress: options.allowPrivate };
    this.agents = { 'http:': new RequestFilteringHttpAgent(filter), 'https:': new RequestFilteringHttpsAgent(filter) };
  }

  /** At creation: not http(s), or an address anyone can see is private (a name is checked when connecting). */
  refusal(value: string): string | null {
    const url = httpUrl(value);
    if (typeof url === 'string') return url;
    if (value.length > 2000) return 'url must be at most 2000 characters';
    if (this.options.allowPrivate) return null;
    const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
    if (host === 'localhost' || host.endsWith('.localhost')) return `url points to this machine; ${PRIVATE_HINT}`;
    if (ipaddr.isValid(host) && ipaddr.process(host).range() !== 'unicast')
      return `url points to a loopback, private or reserved address; ${PRIVATE_HINT}`;
    return null;
  }

  send(request: { url: string; secret: string; event: WebhookEvent; deliveryId: string; body: string }) {
    const started = performance.now();
    const outcome = (statusCode: number | null, error: string | null) => ({
      statusCode,
      error,
      durationMs: Math.round(performance.now() - started),
    });
    // The address itself is checked by the agent, on the connection, whatever name led to it.
    const url = httpUrl(request.url);
    if (typeof url === 'string') return Promise.resolve(outcome(null, url));
    const client = url.protocol === 'https:' ? https : http;
    const timeoutMs = this.options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    return new Promise<ReturnType<typeof outcome>>((resolve) => {
      const outgoing = client.request(url, {
        method: 'POST',
        agent: this.agents[url.protocol as 'http:' | 'https:'],
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(request.body),
          'User-Agent': this.options.userAgent,
          'X-Forum-Event': request.event,
          'X-Forum-Delivery': request.deliveryId,
          'X-Forum-Signature-256': signature(request.secret, request.body),
        },
      });
      outgoing.on('response', (response) => {
        // Only the status matters; the body is read and dropped so that the socket is freed.
        response.resume();
        resolve(outcome(response.statusCode ?? null, null));
      });
      outgoing.on('error', (error: Error) => {
        const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
        resolve(outcome(null, timedOut ? `no response within ${timeoutMs / 1000} s` : brief(error)));
      });
      outgoing.end(request.body);
    });
  }
}

function httpUrl(value: string): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : 'url must be an http(s) URL';
}

/** An error in a line, without the stack: it is shown by `webhooks deliveries`. */
function brief(error: Error & { code?: string }): string {
  const message = error.message.split('\n')[0]!.slice(0, 300);
  return error.code && !message.includes(error.code) ? `${error.code}: ${message}` : message;
}
