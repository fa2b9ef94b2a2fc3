import type { Context } from 'koa';
import type { Locale } from '../../domain/users/user.js';

/**
 * The language to answer a person in (contract §16b): `lang` in the query when it names one we write, else the
 * first language of Accept-Language we write (any Chinese is Simplified Chinese), else English.
 */
export function localeOf(ctx: Context): Locale {
  const asked = typeof ctx.query.lang === 'string' ? known(ctx.query.lang) : null;
  if (asked) return asked;
  const header = ctx.get('Accept-Language');
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...rest] = part.trim().split(';');
      const q = rest.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag!.trim(), q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.tag !== '' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const locale = known(tag);
    if (locale) return locale;
  }
  return 'en';
}

function known(tag: string): Locale | null {
  const lowered = tag.toLowerCase();
  if (lowered === 'zh' || lowered.startsWith('zh-')) return 'zh-CN';
  if (lowered === 'en' || lowered.startsWith('en-')) return 'en';
  return null;
}
