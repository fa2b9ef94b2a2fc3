import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { MetricsText } from '../adapters/api/metrics.js';

/** A worker asks the primary for every worker's metrics, summed; the primary asks them all (this one included). */
const METRICS_REQUEST = 'forum:metrics';

/** A worker that dies this soon after it started is not restarted at once: a crash loop waits longer each time. */
const QUICK_DEATH_MS = 10_000;

/**
 * The primary of `WEB_CONCURRENCY=n` (contract §15): it serves nothing itself. It starts n workers, which share
 * the port (node's cluster module hands them the connections) and each run the whole service; starts another
 * when one dies; and on SIGTERM or SIGINT stops them all, each as a single process stops (in-flight requests
 * finish), then exits 0 if every worker did. It also answers the workers' requests for the summed metrics.
 */
export function runPrimary(workers: number, logger: Logger): void {
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  let failedExits = 0;
  let quickDeaths = 0;

  const start = () => {
    const worker = cluster.fork();
    const startedAt = Date.now();
    worker.on('message', (message: { type?: string; id?: number }) => {
      if (message?.type !== METRICS_REQUEST) return;
      aggregator.clusterMetrics().then(
        (text) => worker.isConnected() && worker.send({ type: METRICS_REQUEST, id: message.id, text }),
        (error: Error) => worker.isConnected() && worker.send({ type: METRICS_REQUEST, id: message.id, error: error.message }),
      );
    });
    worker.once('exit', (code, signal) => {
      if (stopping) {
        // Killed by our own SIGTERM: the worker was still loading its modules and had no handler yet, so it had
        // opened nothing and served nothing. Any other way of ending but exit 0 is a failed stop.
        if (code !== 0 && signal !== 'SIGTERM') failedExits++;
        return;
      }
      quickDeaths = Date.now() - startedAt < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
      const delay = Math.min(1_000 * 2 ** Math.max(quickDeaths - 1, 0), 30_000);
      logger.error({ worker: worker.process.pid, code, signal, restartInMs: delay }, 'a worker stopped; starting another');
      setTimeout(() => !stopping && start(), delay);
    });
  };

  for (let i = 0; i < workers; i++) start();
  logger.info({ workers }, 'started the workers');

  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping the workers');
    const running = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    let left = running.length;
    if (left === 0) process.exitCode = 0;
    for (const worker of running) {
      worker.once('exit', () => {
        if (--left === 0) {
          process.exitCode = failedExits === 0 ? 0 : 1;
          logger.info({ failedExits }, 'stopped');
        }
      });
      worker.process.kill('SIGTERM');
    }
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/**
 * In a worker: the registry is the one the primary aggregates, and a scrape (whichever worker it reaches) gets
 * every worker's metrics, summed by prom-client's AggregatorRegistry.
 */
export function clusterMetrics(registry: Registry): MetricsText {
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry(); // answers the primary's requests for this worker's metrics
  let sequence = 0;
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  process.on('message', (message: { type?: string; id?: number; text?: string; error?: string }) => {
    if (message?.type !== METRICS_REQUEST || message.id === undefined) return;
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.text !== undefined) pending.resolve(message.text);
    else pending.reject(new Error(message.error ?? 'no metrics'));
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = ++sequence;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the primary did not send the metrics in time'));
      }, 5_000);
      waiting.set(id, {
        resolve: (text) => (clearTimeout(timer), resolve(text)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      process.send!({ type: METRICS_REQUEST, id });
    });
}
