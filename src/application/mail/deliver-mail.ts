import type { MailTokenPurpose } from '../../domain/events.js';
import { LOCALES, type AccountState, type EmailMessages, type EmailNotifications, type Locale } from '../../domain/users/user.js';
import { mailedTypes, receivesNotificationMail } from '../../domain/notifications/mailing.js';
import type { Clock, MailList, MailTokenKeys } from '../ports.js';
import { DIGEST_TOPICS, type DigestTopic } from './digests.js';
import type { ComposedMail, MailComposer, MailContent, MailRecipient } from './mail-composer.js';
import type { MailJob } from './mail-jobs.js';
import type { Mailer, OutgoingMail } from './mailer.js';

/** What a mail needs to know of its account, read when it is sent. */
export interface MailAccount {
  id: number;
  login: string;
  name: string | null;
  email: string;
  locale: string;
  state: AccountState;
  emailNotifications: EmailNotifications;
  emailDigest: 'weekly' | 'daily' | 'none';
  emailMessages: EmailMessages;
  /** Whether a password opens the account: a reset link for one without sets its first (`User#hasPassword`). */
  hasPassword: boolean;
}

/** A message to mail (contract §24): who wrote it, and what, as written and as rendered. */
export interface PendingMessage {
  authorLogin: string;
  body: string;
  bodyHtml: string;
}

/** What a message mail says: the conversation and the messages its recipient has yet to read since `since`. */
export interface ConversationMessages {
  title: string;
  messages: PendingMessage[];
}

/** A notification waiting for its mail, with the post it is about (a reply, or the topic for a mention in it). */
export interface PendingNotice {
  notificationId: number;
  type: 'TopicReply' | 'Mention';
  /** The post: a reply's id, or null for the topic's own body. */
  replyId: number | null;
  authorLogin: string;
  /** The post as written (Markdown), for the text part, and as the API renders it, for the HTML part. */
  body: string;
  bodyHtml: string;
}

/** What a notification mail says: the topic and what is still unread and not mailed of it, oldest first. */
export interface TopicNotices {
  topicId: number;
  title: string;
  notices: PendingNotice[];
}

/** A mail link's row (account_tokens): its digest stays in the database; the token is derived from `id`. */
export interface MailTokenRow {
  id: string;
  userId: number;
  purpose: MailTokenPurpose;
  /** The new address, for `email_change`. */
  email: string | null;
  expiresAt: Date;
  usedAt: Date | null;
}

/** What the mail sender reads, at send time. */
export interface MailFacts {
  account(userId: number): Promise<MailAccount | null>;
  token(id: string): Promise<MailTokenRow | null>;
  /**
   * The recipient's notifications of a topic that are of `types`, unread and not mailed yet, whose post is still
   * there to read; null when the topic is gone.
   */
  noticesOf(userId: number, topicId: number, types: readonly PendingNotice['type'][]): Promise<TopicNotices | null>;
  /** Mailed: not mailed again by a later job of the same topic. */
  markMailed(notificationIds: readonly number[], at: Date): Promise<void>;
  /**
   * The messages of a conversation its recipient takes part in (the visibility policy's `conversationUnread` reader)
   * written since `since` and not read by them yet, oldest first; null when it is not theirs (any more).
   */
  messagesOf(userId: number, conversationId: number, since: Date): Promise<ConversationMessages | null>;
  /**
   * A digest's topics (contract §17): at most `limit` topics started since `since` that this user sees in the topic
   * list (the list's own rule: not deleted, not banned, not in a node or by a user they blocked) and that are in
   * no hidden node, not their own; the most active first (replies and likes), the newest first among equals.
   */
  digestTopics(userId: number, since: Date, limit: number): Promise<DigestTopic[]>;
}
export const MailFacts = Symbol.for('MailFacts');

/** Where mail links and answers go (config.mail and PUBLIC_URL). */
export interface MailAddresses {
  publicUrl: string;
  /** TOPIC_URL: `{id}` is the topic's. */
  topicUrl: string;
  /** REPLY_BY_EMAIL: `%{key}` is the reply or unsubscribe key; null: off. */
  replyAddress: string | null;
  /** MAIL_FROM. */
  from: string;
}

/** `sent`, or `dropped` when nothing is to be sent any more (a spent or expired link, a gone account, a digest with nothing new). */
export type MailOutcome = 'sent' | 'dropped';

/** Where links in mail point: PUBLIC_URL's pages (contract §16b). */
const PAGES = {
  verify: '/account/verify',
  email_change: '/account/verify',
  reset: '/account/password/reset',
  forgot: '/account/password/forgot',
  settings: '/account/settings',
  conversation: '/messages/',
  unsubscribe: '/account/unsubscribe',
} as const;

/**
 * Sends one queued mail (contract §17): loads what it says now, not when it was queued, so that a link spent or
 * expired meanwhile is not sent; derives the link's token from the row's id (MailTokenKeys), has the mail written
 * in the account's language (MailComposer) and hands it to the Mailer. A failure throws: the job queue tries again
 * later.
 */
export class DeliverMail {
  private readonly siteUrl: string;
  private readonly site: string;
  /** PUBLIC_URL's host name: the domain of thread ids and list ids. */
  private readonly hostname: string;

  constructor(
    private readonly facts: MailFacts,
    private readonly keys: MailTokenKeys,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly composer: MailComposer,
    private readonly addresses: MailAddresses,
  ) {
    this.siteUrl = addresses.publicUrl.replace(/\/+$/, '');
    this.site = new URL(addresses.publicUrl).host;
    this.hostname = new URL(addresses.publicUrl).hostname;
  }

  async execute(job: MailJob): Promise<MailOutcome> {
    const account = await this.facts.account(job.userId);
    if (!account) return 'dropped';
    if (job.kind === 'notifications') return this.notify(account, job.topicId);
    if (job.kind === 'messages') return this.messages(account, job.topicId, new Date(job.since));
    const mail = await this.compose(job, account);
    if (!mail) return 'dropped';
    await this.mailer.send({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      autoSubmitted: true,
      ...(mail.list ? { list: mail.list } : {}),
    });
    return 'sent';
  }

  /**
   * A topic's notification mail: what of it is still unread and not mailed, by the preference the account has
   * now (one turned off meanwhile sends nothing), as one mail in the topic's thread; marked mailed once sent. A
   * send that fails is tried again whole; one that succeeds but cannot be marked may come twice, never not at all.
   */
  private async notify(account: MailAccount, topicId: number): Promise<MailOutcome> {
    const types = mailedTypes(account.emailNotifications);
    if (!receivesNotificationMail(account.state) || types.length === 0) return 'dropped';
    const pending = await this.facts.noticesOf(account.id, topicId, types);
    if (!pending || pending.notices.length === 0) return 'dropped';
    // A reply that both answers the recipient's topic and mentions them is shown once, as the mention.
    const byPost = new Map<string, PendingNotice>();
    for (const notice of pending.notices) {
      const post = `${notice.replyId ?? 'topic'}`;
      if (!byPost.has(post) || notice.type === 'Mention') byPost.set(post, notice);
    }
    const posts = [...byPost.values()].map((notice) => ({
      kind: notice.type === 'Mention' ? ('mention' as const) : ('reply' as const),
      login: notice.authorLogin,
      html: notice.bodyHtml,
      text: notice.body,
    }));
    const replyTo = this.replyTo(account, topicId);
    const mail = this.write(account, {
      kind: 'notifications',
      title: pending.title,
      topicUrl: this.topicUrl(topicId),
      posts,
      replyByMail: replyTo !== undefined,
      preference: account.emailNotifications,
      unsubscribeUrl: this.unsubscribeUrl(account.id, 'notifications'),
      settingsUrl: `${this.siteUrl}${PAGES.settings}`,
    });
    await this.sendInThread(account, mail, { replyTo, thread: `topic-${topicId}`, list: 'notifications' });
    await this.facts.markMailed(
      pending.notices.map((notice) => notice.notificationId),
      this.clock.now(),
    );
    return 'sent';
  }

  /**
   * A conversation's new messages (contract §24), by the preference the account has now, as one mail in the
   * conversation's thread; answering it replies in the conversation (REPLY_BY_EMAIL). What its recipient read
   * meanwhile is not sent.
   */
  private async messages(account: MailAccount, conversationId: number, since: Date): Promise<MailOutcome> {
    if (!receivesNotificationMail(account.state) || account.emailMessages !== 'always') return 'dropped';
    const pending = await this.facts.messagesOf(account.id, conversationId, since);
    if (!pending || pending.messages.length === 0) return 'dropped';
    const replyTo = this.replyTo(account, conversationId);
    const mail = this.write(account, {
      kind: 'messages',
      title: pending.title,
      conversationUrl: `${this.siteUrl}${PAGES.conversation}${conversationId}`,
      posts: pending.messages.map((message) => ({ login: message.authorLogin, html: message.bodyHtml, text: message.body })),
      replyByMail: replyTo !== undefined,
      unsubscribeUrl: this.unsubscribeUrl(account.id, 'messages'),
      settingsUrl: `${this.siteUrl}${PAGES.settings}`,
    });
    await this.sendInThread(account, mail, { replyTo, thread: `message-${conversationId}`, list: 'messages' });
    return 'sent';
  }

  /** Where answering a mail about topic (or conversation) `topicId` goes, when reply by e-mail is on (REPLY_BY_EMAIL). */
  private replyTo(account: MailAccount, topicId: number): string | undefined {
    return this.addresses.replyAddress?.replace('%{key}', this.keys.replyKey(account.id, topicId));
  }

  /** A mail of a list, in the thread of its topic or conversation (every mail of it names the same id), answerable. */
  private async sendInThread(
    account: MailAccount,
    mail: ComposedMail,
    how: { replyTo: string | undefined; thread: string; list: MailList },
  ): Promise<void> {
    await this.mailer.send({
      to: account.email,
      ...mail,
      autoSubmitted: true,
      ...(how.replyTo ? { replyTo: how.replyTo } : {}),
      thread: `${how.thread}@${this.hostname}`,
      list: this.listOf(account.id, how.list),
    });
  }

  private topicUrl(topicId: number): string {
    return this.addresses.topicUrl.replace('{id}', String(topicId));
  }

  private unsubscribeUrl(userId: number, list: MailList): string {
    return `${this.siteUrl}${PAGES.unsubscribe}?key=${this.keys.unsubscribeKey(userId, list)}`;
  }

  /**
   * The list headers of a mail a person can leave (RFC 2369, 2919, 8058): the https link, which a POST of
   * `List-Unsubscribe=One-Click` follows without a session, and a mailto address that reply by e-mail reads (the
   * unsubscribe key in the address when REPLY_BY_EMAIL is on, else in the subject of a mail to MAIL_FROM).
   */
  private listOf(userId: number, list: MailList): NonNullable<OutgoingMail['list']> {
    const key = this.keys.unsubscribeKey(userId, list);
    const address = this.addresses.replyAddress?.replace('%{key}', key) ?? addressOf(this.addresses.from);
    return {
      // RFC 2919: `"<site> <list>" <list.host>`, under the site's own domain.
      id: `${list}.${this.hostname}`,
      name: `${this.site} ${list}`,
      unsubscribeUrl: this.unsubscribeUrl(userId, list),
      unsubscribeMailto: `mailto:${address}?subject=unsubscribe%20${key}`,
    };
  }

  /** The mail, written for the account in its language (English when it has one we do not write). */
  private write(account: MailAccount, content: MailContent): ComposedMail {
    const locale = (LOCALES as readonly string[]).includes(account.locale) ? (account.locale as Locale) : 'en';
    const recipient: MailRecipient = {
      site: this.site,
      siteUrl: this.siteUrl,
      login: account.login,
      name: account.name || account.login,
    };
    return this.composer.compose(recipient, content, locale);
  }

  private async compose(
    job: Exclude<MailJob, { kind: 'notifications' | 'messages' }>,
    account: MailAccount,
  ): Promise<(ComposedMail & { to: string; list?: OutgoingMail['list'] }) | null> {
    const forgotLink = `${this.siteUrl}${PAGES.forgot}`;
    switch (job.kind) {
      case 'verify':
      case 'reset':
      case 'email_change': {
        const token = await this.facts.token(job.tokenId);
        const now = this.clock.now();
        if (!token || token.userId !== account.id || token.purpose !== job.kind) return null;
        if (token.usedAt !== null || token.expiresAt.getTime() <= now.getTime()) return null;
        // A verification mail for an account that is verified by now (an administrator did it) has nothing to do.
        if (job.kind === 'verify' && account.state !== 'unverified') return null;
        const to = job.kind === 'email_change' ? token.email : account.email;
        if (!to) return null;
        const link = `${this.siteUrl}${PAGES[job.kind]}?token=${encodeURIComponent(this.keys.tokenFor(token.id))}`;
        const hours = Math.max(1, Math.ceil((token.expiresAt.getTime() - now.getTime()) / 3_600_000));
        const kind = job.kind === 'reset' && !account.hasPassword ? 'set_password' : job.kind;
        return { to, ...this.write(account, { kind, link, hours }) };
      }
      case 'sign_up_repeated':
      case 'password_changed':
        return { to: account.email, ...this.write(account, { kind: job.kind, forgotLink }) };
      case 'email_changed':
        return { to: job.previousEmail, ...this.write(account, { kind: job.kind, forgotLink }) };
      case 'approved':
        return { to: account.email, ...this.write(account, { kind: job.kind }) };
      case 'digest': {
        // Read now: an account that left digests, or stopped being active, since the job was queued gets none.
        if (account.state !== 'active' || account.emailDigest === 'none') return null;
        const topics = await this.facts.digestTopics(account.id, new Date(job.since), DIGEST_TOPICS);
        if (topics.length === 0) return null;
        const list = this.listOf(account.id, 'digest');
        return {
          to: account.email,
          list,
          ...this.write(account, {
            kind: 'digest',
            period: account.emailDigest,
            topics: topics.map((topic) => ({
              title: topic.title,
              url: this.topicUrl(topic.id),
              nodeName: topic.nodeName,
              author: topic.author.name || topic.author.login,
              repliesCount: topic.repliesCount,
              likesCount: topic.likesCount,
              text: topic.text,
            })),
            unsubscribeUrl: list.unsubscribeUrl,
            settingsUrl: `${this.siteUrl}${PAGES.settings}`,
          }),
        };
      }
    }
  }
}

/** The address of `forum <noreply@forum.example>` or `noreply@forum.example`. */
function addressOf(from: string): string {
  return /<([^>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}
