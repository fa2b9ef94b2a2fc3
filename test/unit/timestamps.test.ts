import { expect } from 'chai';
import { toDate } from '../../src/adapters/persistence/database/timestamps.js';

/** The general reading: the text made ISO 8601 and parsed by Date. */
const general = (text: string) => new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));

/** A timestamp as a UTC session prints it: no fraction, or one to six digits without trailing zeros. */
function printed(time: number, micros: number, digits: number): string {
  const whole = new Date(time).toISOString().slice(0, 19).replace('T', ' ');
  const fraction = String(micros).padStart(6, '0').slice(0, digits).replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''}+00`;
}

describe('timestamps read from PostgreSQL text', () => {
  it('reads every UTC form as the general parse does, fractions cut to milliseconds', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 20_000; i++) {
      const text = printed(next() * 1000 - 5e11, next() % 1_000_000, next() % 7);
      expect(toDate(text).getTime(), text).to.equal(general(text).getTime());
      expect(toDate(text).toISOString(), text).to.equal(general(text).toISOString());
    }
    expect(toDate('2026-11-21 08:15:30.123987+00').toISOString()).to.equal('2026-11-21T08:15:30.123Z');
    expect(toDate('2026-11-21 08:15:30.5+00').toISOString()).to.equal('2026-11-21T08:15:30.500Z');
    expect(toDate('2026-11-21 08:15:30+00').toISOString()).to.equal('2026-11-21T08:15:30.000Z');
  });

  it('writes itself out from the text it was read from, until something sets it to another time', () => {
    const date = toDate('2026-11-21 08:15:30.123987+00');
    expect(JSON.stringify({ at: date })).to.equal('{"at":"2026-11-21T08:15:30.123Z"}');
    expect(date).to.be.instanceOf(Date);
    date.setUTCHours(9);
    expect(date.toISOString()).to.equal('2026-11-21T09:15:30.123Z');
    expect(toDate('9999-12-31 23:59:59.999999+00').toISOString()).to.equal('9999-12-31T23:59:59.999Z');
  });

  it('reads other zones, early years and Dates the general way', () => {
    expect(toDate('2026-11-21 08:15:30+05:30').toISOString()).to.equal('2026-11-21T02:45:30.000Z');
    expect(toDate('2026-11-21 08:15:30.25-03').toISOString()).to.equal('2026-11-21T11:15:30.250Z');
    expect(toDate('0050-01-01 00:00:00+00').toISOString()).to.equal('0050-01-01T00:00:00.000Z');
    const date = new Date();
    expect(toDate(date)).to.equal(date);
    expect(toDate(null)).to.equal(null);
  });
});
