import type { DigestPeriod } from '../digests.js';
import type { MailListItem, Template } from './layout.js';

/** A digest's topic, ready to be written: its link (TOPIC_URL) made. */
export interface DigestEntry {
  title: string;
  url: string;
  nodeName: string;
  /** The author's display name, or login. */
  author: string;
  repliesCount: number;
  likesCount: number;
  text: string;
}

export interface DigestFacts {
  period: DigestPeriod;
  topics: DigestEntry[];
  /** The one-click link that ends these digests (the List-Unsubscribe one), and the page of mail settings. */
  unsubscribeUrl: string;
  settingsUrl: string;
}

/** Where an excerpt is cut: about two lines of a phone's width. East Asian characters count twice (they are wide). */
const EXCERPT_WIDTH = 200;

/**
 * The start of a topic's text for a digest: on one line, cut at about EXCERPT_WIDTH at a space when one is near
 * (Latin text), anywhere otherwise (Chinese has none), with an ellipsis when cut.
 */
export function excerpt(text: string, width = EXCERPT_WIDTH): string {
  const line = text.replace(/\s+/g, ' ').trim();
  let used = 0;
  let end = 0;
  for (const character of line) {
    used += /[\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/.test(character) ? 2 : 1;
    if (used > width) break;
    end += character.length;
  }
  if (end >= line.length) return line;
  const space = line.lastIndexOf(' ', end);
  const cut = space > end - 30 && space > 0 ? space : end;
  return `${line.slice(0, cut).trimEnd()}…`;
}

const items = (topics: DigestEntry[], about: (topic: DigestEntry) => string): MailListItem[] =>
  topics.map((topic) => ({ title: topic.title, url: topic.url, about: about(topic), excerpt: excerpt(topic.text) }));

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The digest (contract §17): what was started while the reader was away, most active first. */
export const digestMail: Template<DigestFacts> = {
  en: ({ site, siteUrl, period, topics, unsubscribeUrl, settingsUrl }) => ({
    subject: `${period === 'daily' ? 'Today' : 'This week'} at ${site}: ${topics[0]!.title}${
      topics.length > 1 ? ` and ${plural(topics.length - 1, 'more topic', 'more topics')}` : ''
    }`,
    paragraphs: [
      `Here ${topics.length === 1 ? 'is the most active topic' : `are the ${topics.length} most active topics`} started at ${site} since you were last there:`,
    ],
    items: items(
      topics,
      (topic) =>
        `${topic.nodeName} · ${topic.author} · ${plural(topic.repliesCount, 'reply', 'replies')}` +
        (topic.likesCount > 0 ? ` · ${plural(topic.likesCount, 'like', 'likes')}` : ''),
    ),
    action: { label: `Visit ${site}`, url: siteUrl, copy: false },
    after: [`You get this ${period} digest because you have not visited ${site} for a while. It stops coming while you visit.`],
    footer: {
      links: [
        { label: 'Unsubscribe from these digests', url: unsubscribeUrl },
        { label: 'Mail settings', url: settingsUrl },
      ],
    },
  }),
  'zh-CN': ({ site, siteUrl, period, topics, unsubscribeUrl, settingsUrl }) => ({
    subject: `${site} ${period === 'daily' ? '今日' : '本周'}热门：${topics[0]!.title}${
      topics.length > 1 ? ` 等 ${topics.length} 个话题` : ''
    }`,
    paragraphs: [`自你上次访问以来，${site} 上最活跃的${topics.length === 1 ? '新话题' : ` ${topics.length} 个新话题`}：`],
    items: items(
      topics,
      (topic) =>
        `${topic.nodeName} · ${topic.author} · ${topic.repliesCount} 条回复` +
        (topic.likesCount > 0 ? ` · ${topic.likesCount} 个赞` : ''),
    ),
    action: { label: `访问 ${site}`, url: siteUrl, copy: false },
    after: [`你有一段时间没有访问 ${site} 了，所以收到这封${period === 'daily' ? '每日' : '每周'}摘要。你访问期间不会收到摘要。`],
    footer: {
      links: [
        { label: '退订摘要邮件', url: unsubscribeUrl },
        { label: '邮件设置', url: settingsUrl },
      ],
    },
  }),
};
