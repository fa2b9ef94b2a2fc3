import { SEED_SENTENCES } from '../src/application/maintenance/seed-text.js';

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/**
 * The body of a reply the benchmark writes: two of the seed's sentences, as a seeded reply has, with some
 * Markdown and a mention. Its words are the seed's: the newest documents, which searches walk first, must not
 * fill up with words no seeded document has (nor lack the searched ones), or a later run's searches would
 * measure the walk past them.
 */
export const replyText = (mentioned = 'seed1'): string =>
  `${pick(SEED_SENTENCES)} ${pick(SEED_SENTENCES)} With **Markdown** and a mention of @${mentioned}.`;
