import type { MailTokenPurpose } from '../../domain/events.js';
import type { Clock, MailTokenKeys } from '../ports.js';
import { DIGEST_TOPICS, type DigestTopic } from './digests.js';
import type { MailJob } from './mail-jobs.js';
import type { Mailer, OutgoingMail } from './mailer.js';
import { approvedMail } from './templates/approved.js';
import { digestMail } from './templates/digest.js';
import { emailChangeMail } from './templates/email-change.js';
import { emailChangedMail } from './templates/email-changed.js';
import {
  MAIL_LOCALES,
  type MailLocale,
  type Recipient,
  type RenderedMail,
  renderListMail,
  renderMail,
} from './templates/layout.js';
import { passwordChangedMail } from './templates/password-changed.js';
import { resetMail } from './templates/reset.js';
import { signUpRepeatedMail } from './templates/sign-up-repeated.js';
import { verifyMail } from './templates/verify.js';

/** What a mail needs to know of its account, read when it is sent. */
export interface MailAccount {
  id: number;
  login: string;
  name: string | null;
  email: string;
  locale: string;
  state: 'unverified' | 'pending' | 'active';
  emailDigest: 'weekly' | 'daily' | 'none';
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
   * A digest's topics (contract §17): at most `limit` topics started since `since` that this user sees in the topic
   * list (the list's own rule: not deleted, not banned, not in a node or by a user they blocked) and that are in
   * no hidden node, not their own; the most active first (replies and likes), the newest first among equals.
   */
  digestTopics(userId: number, since: Date, limit: number): Promise<DigestTopic[]>;
}
export const MailFacts = Symbol.for('MailFacts');

/** `sent`, or `dropped` when nothing is to be sent any more (a spent or expired link, a gone account, a digest with nothing new). */
export type MailOutcome = 'sent' | 'dropped';

/** Where links in mail point: PUBLIC_URL's pages (contract §16b). */
const PAGES = {
  verify: '/account/verify',
  email_change: '/account/verify',
  reset: '/account/password/reset',
  forgot: '/account/password/forgot',
  settings: '/account/settings',
  unsubscribe: '/account/unsubscribe',
} as const;

/** What mail links and headers are made of besides PUBLIC_URL: TOPIC_URL and MAIL_FROM (config.mail). */
export interface MailSettings {
  /** Where mail links to a topic, `{id}` in it. */
  topicUrl: string;
  /** The From of every mail (`forum <noreply@forum.example>`): its address takes unsubscribe mail. */
  from: string;
}

/**
 * Sends one queued mail (contract §17): loads what it says now, not when it was queued, so that a link spent or
 * expired meanwhile is not sent; derives the link's token from the row's id (MailTokenKeys), writes the mail in
 * the account's language and hands it to the Mailer. A failure throws: the job queue tries again later.
 */
export class DeliverMail {
  private readonly siteUrl: string;
  private readonly site: string;
  private readonly hostname: string;

  constructor(
    private readonly facts: MailFacts,
    private readonly keys: MailTokenKeys,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    publicUrl: string,
    private readonly settings: MailSettings,
  ) {
    this.siteUrl = publicUrl.replace(/\/+$/, '');
    this.site = new URL(publicUrl).host;
    this.hostname = new URL(publicUrl).hostname;
  }

  async execute(job: MailJob): Promise<MailOutcome> {
    const account = await this.facts.account(job.userId);
    if (!account) return 'dropped';
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

  private async compose(
    job: MailJob,
    account: MailAccount,
  ): Promise<(RenderedMail & { to: string; list?: OutgoingMail['list'] }) | null> {
    const locale: MailLocale = (MAIL_LOCALES as readonly string[]).includes(account.locale)
      ? (account.locale as MailLocale)
      : 'en';
    const recipient: Recipient = {
      site: this.site,
      siteUrl: this.siteUrl,
      login: account.login,
      name: account.name || account.login,
    };
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
        const template = { verify: verifyMail, reset: resetMail, email_change: emailChangeMail }[job.kind];
        return { to, ...renderMail(template, locale, { ...recipient, link, hours }) };
      }
      case 'sign_up_repeated':
        return { to: account.email, ...renderMail(signUpRepeatedMail, locale, { ...recipient, forgotLink }) };
      case 'password_changed':
        return { to: account.email, ...renderMail(passwordChangedMail, locale, { ...recipient, forgotLink }) };
      case 'email_changed':
        return { to: job.previousEmail, ...renderMail(emailChangedMail, locale, { ...recipient, forgotLink }) };
      case 'approved':
        return { to: account.email, ...renderMail(approvedMail, locale, recipient) };
      case 'digest': {
        // Read now: an account that left digests, or stopped being active, since the job was queued gets none.
        if (account.state !== 'active' || account.emailDigest === 'none') return null;
        const topics = await this.facts.digestTopics(account.id, new Date(job.since), DIGEST_TOPICS);
        if (topics.length === 0) return null;
        const list = this.digestList(account.id);
        return {
          to: account.email,
          list,
          ...renderListMail(digestMail, locale, {
            ...recipient,
            period: account.emailDigest,
            topics: topics.map((topic) => ({
              title: topic.title,
              url: this.settings.topicUrl.replace('{id}', String(topic.id)),
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

  /**
   * The digest's List-* headers: `List-Id` per RFC 2919 (`digest.<host>`, under the site's own domain, named
   * "<site> digest"), `List-Unsubscribe` with the https link (whose one-click POST, RFC 8058, needs no session)
   * and a mailto to MAIL_FROM's address with the key in the subject, both carrying the user's unsubscribe key.
   */
  private digestList(userId: number): NonNullable<OutgoingMail['list']> {
    const key = encodeURIComponent(this.keys.unsubscribeKey(userId, 'digest'));
    const address = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(this.settings.from)?.[1] ?? this.settings.from.trim();
    return {
      id: `digest.${this.hostname}`,
      name: `${this.site} digest`,
      unsubscribeUrl: `${this.siteUrl}${PAGES.unsubscribe}?key=${key}`,
      unsubscribeMailto: `mailto:${address}?subject=unsubscribe%20${key}`,
    };
  }
}
