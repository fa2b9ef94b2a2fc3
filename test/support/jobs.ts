import { JobRuntime } from '../../src/adapters/jobs/runtime.js';
import type { JobTask } from '../../src/adapters/jobs/task.js';
import { testEnv } from './env.js';

/** A job runtime on the test database running `tasks`, as a server process runs its own, looking for due jobs often. */
export function startJobs(tasks: JobTask[], options: { orphanAfterMs?: number } = {}): Promise<JobRuntime> {
  const env = testEnv();
  return JobRuntime.start(env.config.databaseUrl!, tasks, { pollIntervalMs: 100, scope: env.scope, ...options });
}
