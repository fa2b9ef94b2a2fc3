import { expect } from 'chai';
import { dateTimeEn, dateTimeZh } from '../../src/adapters/presentation/words/dates.js';

describe('the pages’ dates and times (words/dates.ts)', () => {
  it('say what Intl says in en-GB and zh-CN (medium date, short time, UTC), for dates across the years', () => {
    const intl = (locale: string) =>
      new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    const [en, zh] = [intl('en-GB'), intl('zh-CN')];
    // Every month and hour, the first and last minutes of days, and times spread over three centuries.
    const dates = [Date.UTC(2026, 0, 1, 0, 0), Date.UTC(2026, 11, 31, 23, 59), Date.UTC(1999, 8, 9, 9, 5)];
    for (let month = 0; month < 12; month++) dates.push(Date.UTC(2024, month, month + 1, month * 2, month * 5));
    for (let i = 0; i < 500; i++) dates.push(Date.UTC(1900, 0, 1) + Math.floor(Math.random() * 300 * 365.25 * 86_400_000));
    for (const time of dates) {
      const when = new Date(time);
      expect(dateTimeEn(when), when.toISOString()).to.equal(en.format(when));
      expect(dateTimeZh(when), when.toISOString()).to.equal(zh.format(when));
    }
  });
});
