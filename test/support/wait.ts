import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `condition` every 25 ms until it holds, or fails after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition did not come true in time');
    await sleep(25);
  }
}
