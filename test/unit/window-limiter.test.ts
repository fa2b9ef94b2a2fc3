import { expect } from 'chai';
import { type SharedCounters, WindowLimiter } from '../../src/adapters/api/window-limiter.js';

/** The database's table, shared by the limiters of several "processes". */
class MemoryCounters implements SharedCounters {
  readonly counts = new Map<string, number>();
  failing = false;

  async add(window: number, increments: ReadonlyMap<string, number>) {
    if (this.failing) throw new Error('the database is away');
    const totals = new Map<string, number>();
    for (const [key, count] of increments) {
      const total = (this.counts.get(`${window}/${key}`) ?? 0) + count;
      this.counts.set(`${window}/${key}`, total);
      totals.set(key, total);
    }
    return totals;
  }

  async forget(window: number) {
    for (const key of this.counts.keys()) if (Number(key.split('/')[0]) < window) this.counts.delete(key);
  }
}

describe('WindowLimiter', () => {
  let now = 60_000 * 1_000;
  const clock = () => now;

  it('counts each key in memory, and learns the other processes’ counts at each sync', async () => {
    const shared = new MemoryCounters();
    const a = new WindowLimiter(shared, clock);
    const b = new WindowLimiter(shared, clock);
    expect(a.hit(['address:1', 'token:x'])).to.deep.equal([1, 1]);
    expect(a.hit(['address:1', 'token:x'])).to.deep.equal([2, 2]);
    expect(b.hit(['token:x'])).to.deep.equal([1]);
    await a.sync();
    await b.sync();
    // b now knows a's two; a learns b's one at its next sync.
    expect(b.hit(['token:x'])).to.deep.equal([4]);
    expect(a.hit(['token:x'])).to.deep.equal([3]);
    await a.sync();
    // Shared: a's three and b's first; b's second is still b's own until it syncs.
    expect(a.hit(['token:x'])).to.deep.equal([5]);
    await b.sync();
    expect(b.hit(['token:x'])).to.deep.equal([6]);
  });

  it('starts from zero in a new window, and forgets the windows before the last', async () => {
    const shared = new MemoryCounters();
    const limiter = new WindowLimiter(shared, clock);
    limiter.hit(['k']);
    await limiter.sync();
    const reset = limiter.resetAt();
    expect(reset).to.be.above(now);
    now = reset;
    expect(limiter.hit(['k'])).to.deep.equal([1]);
    await limiter.sync();
    now += 60_000;
    limiter.hit(['k']);
    await limiter.sync();
    expect([...shared.counts.keys()].map((key) => key.split('/')[0])).to.have.length(2);
  });

  it('keeps counting locally while the database is away', async () => {
    const shared = new MemoryCounters();
    const limiter = new WindowLimiter(shared, clock);
    limiter.hit(['k']);
    shared.failing = true;
    await limiter.sync();
    expect(limiter.hit(['k'])).to.deep.equal([2]);
  });

  it('counts what a sync under way has sent: a request during the statement sees it', async () => {
    let release: () => void = () => undefined;
    const shared = new MemoryCounters();
    const slow: SharedCounters = {
      add: async (window, increments) => {
        await new Promise<void>((resolve) => (release = resolve));
        return shared.add(window, increments);
      },
      forget: (window) => shared.forget(window),
    };
    const limiter = new WindowLimiter(slow, clock);
    for (let i = 1; i <= 5; i++) expect(limiter.hit(['k'])).to.deep.equal([i]);
    const syncing = limiter.sync();
    // The five are on their way to the database, not yet back: still counted.
    expect(limiter.hit(['k'])).to.deep.equal([6]);
    release();
    await syncing;
    expect(limiter.hit(['k'])).to.deep.equal([7]);
  });

  it('counts a sync’s increments once while it forgets the windows gone by, and not again when forgetting fails', async () => {
    let release: () => void = () => undefined;
    const shared = new MemoryCounters();
    let forgetting: Promise<void> | null = null;
    const slowForget: SharedCounters = {
      add: (window, increments) => shared.add(window, increments),
      forget: (window) =>
        (forgetting = new Promise<void>((resolve) => (release = resolve)).then(() => {
          throw new Error('the database went away');
        })).then(() => shared.forget(window)),
    };
    now += 60_000;
    const limiter = new WindowLimiter(slowForget, clock);
    for (let i = 1; i <= 5; i++) expect(limiter.hit(['k'])).to.deep.equal([i]);
    const syncing = limiter.sync();
    while (forgetting === null) await new Promise((resolve) => setImmediate(resolve));
    // The totals are back and known; the first sync of the window is still forgetting the last one.
    expect(limiter.hit(['k'])).to.deep.equal([6]);
    release();
    await syncing;
    expect(limiter.hit(['k'])).to.deep.equal([7]);
  });
});
