import type { Logger } from 'pino';

type Closer = () => void | Promise<void>;

/**
 * A serving process's start and stop. Starting keeps a closer for each thing it opens; SIGTERM or SIGINT runs
 * them in the reverse order and the process exits 0. The signal may come while the process is still starting (a
 * cluster primary stops its workers however far they are): the step under way finishes, starting goes no further,
 * and what was opened is closed. Dying by the signal instead would read as a crash to a supervisor. Only a closer
 * that throws makes the exit code 1; a start that throws closes what it opened and throws on.
 */
export class Shutdown {
  private readonly closers: Closer[] = [];
  private starting: Promise<void> = Promise.resolve();
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly logger: Logger,
    /** Run last, once everything is closed (a cluster worker lets go of its channel to the primary). */
    private readonly afterStop: () => void = () => undefined,
  ) {}

  /** Run `start`, which calls `keep` for what it opens and returns early when `keep` says stopping has begun. */
  async start(start: () => Promise<void>): Promise<void> {
    process.on('SIGTERM', () => void this.stop('SIGTERM'));
    process.on('SIGINT', () => void this.stop('SIGINT'));
    this.starting = start();
    try {
      await this.starting;
    } catch (error) {
      await this.closeAll();
      throw error;
    }
  }

  /** Keep `close` for the stop. False when stopping has begun: start no more (what was kept is closed). */
  keep(close: Closer): boolean {
    this.closers.push(close);
    return this.stopping === null;
  }

  stop(signal: string): Promise<void> {
    if (this.stopping) return this.stopping;
    this.logger.info({ signal }, 'shutting down');
    this.stopping = (async () => {
      await this.starting.catch(() => undefined);
      await this.closeAll();
      if (process.exitCode === undefined) process.exitCode = 0;
      this.logger.info('stopped');
      this.afterStop();
    })();
    return this.stopping;
  }

  private async closeAll(): Promise<void> {
    for (const close of this.closers.splice(0).reverse()) {
      try {
        await close();
      } catch (error) {
        this.logger.error({ err: error }, 'unclean shutdown');
        process.exitCode = 1;
      }
    }
  }
}
