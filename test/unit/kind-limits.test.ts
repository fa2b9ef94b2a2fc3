import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { KindLimits } from '../../src/adapters/jobs/limits.js';

/** A job that runs until it is let go. */
function held(): { done: Promise<void>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

describe('KindLimits', () => {
  it('forbids the flag of a kind at its limit, and frees it when one of its jobs ends', async () => {
    const limits = new KindLimits(
      new Map([
        ['mail', 2],
        ['webhook', 1],
      ]),
    );
    expect(limits.total).to.equal(3);
    expect(await limits.forbiddenFlags()).to.deep.equal([]);
    const first = held();
    // graphile-worker's job:start, then the task is called in the same turn.
    limits.fetched();
    const running = limits.within('mail', () => first.done);
    expect(await limits.forbiddenFlags()).to.deep.equal([]);
    const second = held();
    limits.fetched();
    const alsoRunning = limits.within('mail', () => second.done);
    expect(await limits.forbiddenFlags()).to.deep.equal(['mail']);
    limits.fetched();
    first.finish();
    await running;
    expect(await limits.forbiddenFlags()).to.deep.equal([]);
    limits.fetched();
    second.finish();
    await alsoRunning;
  });

  it('lets one fetch out at a time: the next is decided once the one in flight has ended', async () => {
    const limits = new KindLimits(new Map([['mail', 1]]));
    const decided: string[][] = [];
    await limits.forbiddenFlags();
    // Two more workers ask while the first fetch is in flight.
    const second = limits.forbiddenFlags().then((flags) => decided.push(flags));
    await sleep(10);
    expect(decided, 'nothing decided while a fetch is in flight').to.deep.equal([]);
    // The first fetch brings a mail: the second is decided with it counted.
    limits.fetched();
    const job = held();
    const running = limits.within('mail', () => job.done);
    await second;
    expect(decided).to.deep.equal([['mail']]);
    limits.fetched();
    job.finish();
    await running;
  });

  it('keeps a job queued without its flag (before the upgrade) waiting for a place rather than beyond the limit', async () => {
    const limits = new KindLimits(new Map([['mail', 1]]));
    let atOnce = 0;
    let most = 0;
    const run = () =>
      limits.within('mail', async () => {
        most = Math.max(most, ++atOnce);
        await sleep(20);
        atOnce--;
      });
    await Promise.all([run(), run(), run()]);
    expect(most).to.equal(1);
    // A task without a limit (a scheduled one) is not held back.
    expect(await limits.within('mail_due', async () => 'ran')).to.equal('ran');
  });
});
