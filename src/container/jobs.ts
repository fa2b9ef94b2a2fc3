import { ContainerModule, type ServiceIdentifier } from 'inversify';
import type { ServiceMetrics } from '../adapters/api/metrics.js';
import { JobRuntime } from '../adapters/jobs/runtime.js';
import type { JobTask } from '../adapters/jobs/task.js';
import { type Bind, provide, ServerHost } from './bind.js';

/**
 * The registry of background work: each feature's module registers the tasks this process runs of it
 * (`registerJobTasks`), and the job runtime runs them all, on one runner.
 */
export const JobTasks = Symbol.for('JobTasks');

/** Registers a feature's tasks, built from the services named in `deps` (none: this process leaves them to others). */
export function registerJobTasks<A extends unknown[]>(
  bind: Bind,
  factory: (...args: A) => JobTask[],
  deps: ServiceIdentifier[],
): void {
  provide(bind, JobTasks, factory, deps);
}

/**
 * What the tasks count their outcomes into: this process's ServiceMetrics, which the HTTP module binds and a scrape
 * reads. Keyed here, not by its class, so that a process that runs no task (forumctl) loads no metrics.
 */
export type TaskMetrics = Pick<ServiceMetrics, 'mailTries' | 'webhookDeliveries'>;
export const TaskMetrics = Symbol.for('TaskMetrics');

/** Starts this server process's job runtime with every task registered; stop it before the database. */
export type StartJobRuntime = () => Promise<JobRuntime>;
export const StartJobRuntime = Symbol.for('StartJobRuntime');

/** The job runtime (adapters/jobs): one graphile-worker runner and one pool per server process, never in forumctl. */
export const jobsModule = new ContainerModule(({ bind }) => {
  bind(StartJobRuntime)
    .toResolvedValue(
      (registered: JobTask[][] | undefined, server: ServerHost): StartJobRuntime =>
        () =>
          JobRuntime.start(server.database.orm.config.get('clientUrl') as string, (registered ?? []).flat(), {
            scope: server.database.scope,
            notice: (message, details) => server.logger.warn(details ?? {}, message),
          }),
      [{ serviceIdentifier: JobTasks, isMultiple: true, optional: true }, ServerHost],
    )
    .inSingletonScope();
});
