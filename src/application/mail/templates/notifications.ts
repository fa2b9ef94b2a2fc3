import type { Template } from './layout.js';

/** One post a notification mail carries: a reply to the recipient's topic or one they follow, or a mention. */
export interface NoticePost {
  kind: 'reply' | 'mention';
  login: string;
  html: string;
  text: string;
}

export interface NoticeFacts {
  title: string;
  topicUrl: string;
  posts: NoticePost[];
  /** Answering this mail posts a reply (REPLY_BY_EMAIL is on). */
  replyByMail: boolean;
  unsubscribeUrl: string;
  settingsUrl: string;
}

/**
 * Notification mail (contract §17): what a topic's burst of replies and mentions said, whole, with a link back. The
 * subject is the topic's, the same for every mail of the topic, so that clients that group by subject agree with
 * the threading headers.
 */
export const notificationsMail: Template<NoticeFacts> = {
  en: ({ site, title, topicUrl, posts, replyByMail, unsubscribeUrl, settingsUrl }) => {
    const [only] = posts;
    const lead =
      posts.length > 1
        ? `${posts.length} new posts in “${title}”:`
        : only!.kind === 'mention'
          ? `${only!.login} mentioned you in “${title}”:`
          : `${only!.login} replied in “${title}”:`;
    return {
      subject: `[${site}] ${title}`,
      greeting: false,
      paragraphs: [lead],
      posts: posts.map((post) => ({
        heading: posts.length === 1 ? '' : post.kind === 'mention' ? `${post.login} mentioned you` : `${post.login} replied`,
        html: post.html,
        text: post.text,
      })),
      action: { label: 'View the topic', url: topicUrl, copy: false },
      footer: {
        lines: [
          replyByMail
            ? 'Reply to this mail to post your answer in the topic.'
            : 'Replies to this mail are not read: answer in the topic.',
          `You get this mail because you asked ${site} to tell you of replies and mentions.`,
        ],
        links: [
          { label: 'Unsubscribe', url: unsubscribeUrl },
          { label: 'Mail settings', url: settingsUrl },
        ],
      },
    };
  },
  'zh-CN': ({ site, title, topicUrl, posts, replyByMail, unsubscribeUrl, settingsUrl }) => {
    const [only] = posts;
    const lead =
      posts.length > 1
        ? `《${title}》有 ${posts.length} 条新内容：`
        : only!.kind === 'mention'
          ? `${only!.login} 在《${title}》中提到了你：`
          : `${only!.login} 在《${title}》中回复了：`;
    return {
      subject: `[${site}] ${title}`,
      greeting: false,
      paragraphs: [lead],
      posts: posts.map((post) => ({
        heading: posts.length === 1 ? '' : post.kind === 'mention' ? `${post.login} 提到了你` : `${post.login} 回复了`,
        html: post.html,
        text: post.text,
      })),
      action: { label: '查看话题', url: topicUrl, copy: false },
      footer: {
        lines: [
          replyByMail ? '直接回复这封邮件，即可在话题中发表回复。' : '这封邮件的回复不会有人阅读，请到话题中回复。',
          `你收到这封邮件，是因为你在 ${site} 开启了回复和提及的邮件通知。`,
        ],
        links: [
          { label: '退订', url: unsubscribeUrl },
          { label: '邮件设置', url: settingsUrl },
        ],
      },
    };
  },
};
