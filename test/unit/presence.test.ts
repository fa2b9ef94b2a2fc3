import { expect } from 'chai';
import { SqlPresence } from '../../src/adapters/persistence/accounts/presence.js';
import type { Sql } from '../../src/adapters/persistence/database/sql.js';

const HOUR = 3_600_000;

/** A Sql that counts the statements it is given (and can be made to fail), for what SqlPresence sends. */
function countingSql() {
  const sent: unknown[][] = [];
  let failing = false;
  const sql = {
    count: async (_text: string, values: unknown[]) => {
      sent.push(values);
      if (failing) throw new Error('the database is away');
      return 1;
    },
  } as unknown as Sql;
  return { sql, sent, fail: (value: boolean) => (failing = value) };
}

describe('SqlPresence (contract §17: seen, written at most once per user per hour)', () => {
  const t0 = new Date('2026-11-26T12:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  it('writes the first visit, nothing for the visits of the next hour, and again after it', async () => {
    const { sql, sent } = countingSql();
    const presence = new SqlPresence(sql);
    await presence.seen({ userId: 7 }, t0);
    expect(sent).to.have.length(1);
    expect(sent[0]).to.deep.equal([7, t0.toISOString(), 3600]);
    for (const ms of [1, 60_000, HOUR - 1]) await presence.seen({ userId: 7 }, at(ms));
    expect(sent).to.have.length(1);
    await presence.seen({ userId: 7 }, at(HOUR));
    expect(sent).to.have.length(2);
  });

  it('keeps users, and tokens looked up by digest, apart', async () => {
    const { sql, sent } = countingSql();
    const presence = new SqlPresence(sql);
    await presence.seen({ userId: 7 }, t0);
    await presence.seen({ userId: 8 }, t0);
    await presence.seen({ accessDigest: 'abc' }, t0);
    await presence.seen({ accessDigest: 'abc' }, at(1000));
    expect(sent.map((values) => values[0])).to.deep.equal([7, 8, 'abc']);
  });

  it('tries again at the next visit when a write failed, and never throws', async () => {
    const { sql, sent, fail } = countingSql();
    const presence = new SqlPresence(sql);
    fail(true);
    await presence.seen({ userId: 7 }, t0);
    fail(false);
    await presence.seen({ userId: 7 }, at(1000));
    await presence.seen({ userId: 7 }, at(2000));
    expect(sent).to.have.length(2);
  });

  it('forgets the oldest visits past its limit, so that its memory stays bounded', async () => {
    const { sql, sent } = countingSql();
    const presence = new SqlPresence(sql);
    for (let id = 1; id <= 100_001; id++) await presence.seen({ userId: id }, t0);
    expect(sent).to.have.length(100_001);
    // The newest is remembered; the oldest was forgotten and costs one more write.
    await presence.seen({ userId: 100_001 }, t0);
    expect(sent).to.have.length(100_001);
    await presence.seen({ userId: 1 }, t0);
    expect(sent).to.have.length(100_002);
  });
});
