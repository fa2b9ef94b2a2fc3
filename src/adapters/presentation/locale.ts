import type { Locale } from '../../domain/users/user.js';

/** What the language of an answer is read from: a request's query and its headers (a Koa context is one). */
export interface AskingRequest {
  query: Record<string, unknown>;
  get(header: string): string;
}

/**
 * The language to answer a person in (contract §16b): `lang` in the query when it names one we write, else the
 * first language of Accept-Language we write (any Chinese is Simplified Chinese), else English. The pages and the
 * API's sign-up (the language of an account's mail) read it alike.
 */
export function localeOf(request: AskingRequest): Locale {
  const asked = typeof request.query.lang === 'string' ? known(request.query.lang) : null;
  if (asked) return asked;
  const header = request.get('Accept-Language');
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
