import http from 'node:http';

/**
 * What a load run saw: answered requests, connections refused (the request never left: safe to retry), and
 * requests that were sent on a connection that then broke without an answer (not safe to retry).
 */
export interface LoadOutcome {
  answered: number;
  statuses: Record<number, number>;
  refused: number;
  /** Requests written to a connection that then broke without an answer (reset, hang-up). */
  unanswered: number;
  errors: string[];
}

export interface LoadRun {
  /** Stops sending and resolves with what was seen once every request in flight has settled. */
  stop(): Promise<LoadOutcome>;
  outcome: LoadOutcome;
}

/**
 * `connections` clients, each sending `path` again as soon as the last answer came (on kept-alive connections,
 * or a new connection per request), until stopped. A refused connection counts as refused, not as an error.
 */
export function load(url: string, options: { connections: number; path: string; keepAlive: boolean }): LoadRun {
  const outcome: LoadOutcome = { answered: 0, statuses: {}, refused: 0, unanswered: 0, errors: [] };
  const agent = new http.Agent({ keepAlive: options.keepAlive, maxSockets: options.connections });
  let running = true;
  const once = () =>
    new Promise<void>((resolve) => {
      const request = http.get(`${url}${options.path}`, { agent }, (response) => {
        response.resume();
        response.on('end', () => {
          outcome.answered++;
          outcome.statuses[response.statusCode!] = (outcome.statuses[response.statusCode!] ?? 0) + 1;
          resolve();
        });
        response.on('error', (error) => {
          outcome.unanswered++;
          outcome.errors.push(`response: ${error.message}`);
          resolve();
        });
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        // Refused, or reset while connecting: the request was never sent, so it is safe to send again.
        if (error.code === 'ECONNREFUSED' || error.syscall === 'connect') {
          outcome.refused++;
          running = false; // the server stopped accepting: this client is done
        } else {
          outcome.unanswered++;
          outcome.errors.push(`${error.code ?? ''} ${error.message}`);
        }
        resolve();
      });
    });
  const clients = Array.from({ length: options.connections }, async () => {
    while (running) await once();
  });
  return {
    outcome,
    async stop() {
      running = false;
      await Promise.all(clients);
      agent.destroy();
      return outcome;
    },
  };
}
