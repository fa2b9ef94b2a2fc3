/**
 * A date and time as the pages show them (UTC, minutes): what `Intl.DateTimeFormat` says with `dateStyle: 'medium'`
 * and `timeStyle: 'short'` in British English and in Simplified Chinese, written out from the date's parts. A topic
 * page shows one per post, and Intl's `format` costs a microsecond or more each; these cost a tenth of that
 * (test/unit/dates.test.ts holds them to Intl's output).
 */

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** en-GB's short month names, as Intl has them ("Sept", not "Sep"), read from it once. */
const MONTHS_EN = Array.from({ length: 12 }, (_, month) =>
  new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' }).format(Date.UTC(2000, month, 1)),
);

/** `29 Nov 2026, 03:04`. */
export function dateTimeEn(when: Date): string {
  return `${when.getUTCDate()} ${MONTHS_EN[when.getUTCMonth()]} ${when.getUTCFullYear()}, ${pad(when.getUTCHours())}:${pad(when.getUTCMinutes())}`;
}

/** `2026年11月29日 03:04`. */
export function dateTimeZh(when: Date): string {
  return `${when.getUTCFullYear()}年${when.getUTCMonth() + 1}月${when.getUTCDate()}日 ${pad(when.getUTCHours())}:${pad(when.getUTCMinutes())}`;
}
