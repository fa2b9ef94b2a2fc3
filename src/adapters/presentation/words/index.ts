import type { Locale } from '../../../domain/users/user.js';
import { en } from './en.js';
import type { Languages, Words } from './words.js';
import { zhCN } from './zh-CN.js';

export type {
  AccountWords,
  Around,
  AuthorizeWords,
  ForumWords,
  MailWords,
  MessageWords,
  ModerationWords,
  Period,
  ProviderWords,
  RefusalWords,
  TwoFactorWords,
  UnsubscribeWords,
  Words,
} from './words.js';

/** Every language the service writes, by locale. */
export const WORDS: Languages = { en, 'zh-CN': zhCN };

/** The words of a language. */
export function wordsOf(locale: Locale): Words {
  return WORDS[locale];
}
