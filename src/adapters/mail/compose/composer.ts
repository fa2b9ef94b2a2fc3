import type { ComposedMail, MailComposer, MailContent, MailRecipient } from '../../../application/mail/mail-composer.js';
import type { Locale } from '../../../domain/users/user.js';
import { renderMail } from './layout.js';
import {
  approvedMail,
  digestMail,
  emailChangedMail,
  emailChangeMail,
  messagesMail,
  notificationsMail,
  passwordChangedMail,
  resetMail,
  setPasswordMail,
  signUpRepeatedMail,
  verifyMail,
} from './letters.js';
import type { InlinedPostHtml } from './post-html.js';

/**
 * Writes each mail from its letter (letters.ts) in the recipient's language, through the same typed views and the
 * same words as the pages: the MailComposer DeliverMail hands its facts to.
 */
export class LetterMailComposer implements MailComposer {
  constructor(private readonly postHtml: InlinedPostHtml) {}

  compose(to: MailRecipient, content: MailContent, locale: Locale): ComposedMail {
    switch (content.kind) {
      case 'verify':
      case 'reset':
      case 'set_password':
      case 'email_change': {
        const letter = {
          verify: verifyMail,
          reset: resetMail,
          set_password: setPasswordMail,
          email_change: emailChangeMail,
        }[content.kind];
        return renderMail(letter, locale, { ...to, link: content.link, hours: content.hours });
      }
      case 'sign_up_repeated':
      case 'password_changed':
      case 'email_changed': {
        const letter = {
          sign_up_repeated: signUpRepeatedMail,
          password_changed: passwordChangedMail,
          email_changed: emailChangedMail,
        }[content.kind];
        return renderMail(letter, locale, { ...to, forgotLink: content.forgotLink });
      }
      case 'approved':
        return renderMail(approvedMail, locale, to);
      case 'notifications': {
        const { kind: _kind, posts, ...facts } = content;
        // Each post's sanitized HTML, made fit for a mail client (absolute links, inline styles).
        const forMail = posts.map((post) => ({ ...post, html: this.postHtml.forMail(post.html) }));
        return renderMail(notificationsMail, locale, { ...to, ...facts, posts: forMail });
      }
      case 'messages': {
        const { kind: _kind, posts, ...facts } = content;
        const forMail = posts.map((post) => ({ ...post, html: this.postHtml.forMail(post.html) }));
        return renderMail(messagesMail, locale, { ...to, ...facts, posts: forMail });
      }
      case 'digest': {
        const { kind: _kind, ...facts } = content;
        return renderMail(digestMail, locale, { ...to, ...facts });
      }
    }
  }
}
