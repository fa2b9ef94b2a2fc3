import { expect } from 'chai';
import { mailJobFor } from '../../src/application/mail/mail-jobs.js';
import {
  approvedMail,
  emailChangedMail,
  emailChangeMail,
  passwordChangedMail,
  resetMail,
  signUpRepeatedMail,
  verifyMail,
} from '../../src/adapters/mail/compose/letters.js';
import { MAIL_LOCALES, renderMail, type Template } from '../../src/adapters/mail/compose/layout.js';
import { parseMessage } from '../../src/adapters/mail/mime.js';
import { loadConfig } from '../../src/config.js';
import { HmacMailTokenKeys } from '../../src/adapters/system/mail-token-keys.js';

describe('mailJobFor', () => {
  it('turns each account event into its job, ids only, and other events into none', () => {
    expect(mailJobFor({ type: 'account.token_issued', userId: 1, tokenId: 'ab', purpose: 'reset' })).to.deep.equal({
      kind: 'reset',
      userId: 1,
      tokenId: 'ab',
    });
    expect(mailJobFor({ type: 'account.sign_up_repeated', userId: 2 })).to.deep.equal({ kind: 'sign_up_repeated', userId: 2 });
    expect(mailJobFor({ type: 'account.password_changed', userId: 3 })).to.deep.equal({ kind: 'password_changed', userId: 3 });
    expect(mailJobFor({ type: 'account.email_changed', userId: 4, previousEmail: 'a@b.example' })).to.deep.equal({
      kind: 'email_changed',
      userId: 4,
      previousEmail: 'a@b.example',
    });
    expect(mailJobFor({ type: 'account.approved', userId: 5 })).to.deep.equal({ kind: 'approved', userId: 5 });
    expect(mailJobFor({ type: 'user.created', userId: 6 })).to.equal(null);
  });
});

describe('mail templates', () => {
  const templates: [string, Template<Record<string, unknown>>][] = [
    ['verify', verifyMail as never],
    ['reset', resetMail as never],
    ['email_change', emailChangeMail as never],
    ['sign_up_repeated', signUpRepeatedMail as never],
    ['password_changed', passwordChangedMail as never],
    ['email_changed', emailChangedMail as never],
    ['approved', approvedMail as never],
  ];
  const facts = {
    site: 'forum.example',
    siteUrl: 'https://forum.example',
    login: 'alice',
    name: '<script>alert("x")</script> & co',
    link: 'https://forum.example/account/verify?token=abc&x="y"',
    forgotLink: 'https://forum.example/account/password/forgot',
    hours: 24,
  };

  for (const [kind, template] of templates) {
    for (const locale of MAIL_LOCALES) {
      it(`${kind} (${locale}): a subject, a text part, and an HTML part that escapes every value`, () => {
        const mail = renderMail(template, locale, facts);
        expect(mail.subject).to.contain('forum.example').and.not.contain('\n');
        expect(mail.text).to.contain('<script>alert("x")</script> & co').and.contain('alice');
        expect(mail.html).to.contain(`<html lang="${locale}">`);
        expect(mail.html).to.contain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
        expect(mail.html)
          .to.not.contain('<script')
          .and.not.match(/<img|<link|url\(/);
        const links = [...mail.html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]);
        expect(links.length).to.be.greaterThan(0);
        for (const link of links) expect(link).to.match(/^https:\/\/forum\.example/);
        if (kind === 'verify')
          expect(mail.html).to.contain('href="https://forum.example/account/verify?token=abc&amp;x=&quot;y&quot;"');
      });
    }
  }
});

describe('mail configuration', () => {
  it('takes smtp:// and smtps:// URLs, refuses others without echoing them, and defaults From to PUBLIC_URL’s host', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://u:p%40ss@smtp.example:465' }).mail.smtpUrl).to.equal(
      'smtps://u:p%40ss@smtp.example:465',
    );
    expect(loadConfig({}).mail.smtpUrl).to.equal(null);
    for (const raw of ['http://u:hunter2@smtp.example', 'smtp://u:hunter2@', 'not a url hunter2']) {
      expect(() => loadConfig({ SMTP_URL: raw }))
        .to.throw(/SMTP_URL/)
        .with.property('message')
        .that.does.not.contain('hunter2');
    }
    expect(loadConfig({ PUBLIC_URL: 'https://forum.example:8443/x' }).mail.from).to.equal('forum <noreply@forum.example>');
    // An IP address is no mail domain: the default (PUBLIC_URL http://127.0.0.1:3000) says localhost.
    expect(loadConfig({}).mail.from).to.equal('forum <noreply@localhost>');
    expect(loadConfig({ PUBLIC_URL: 'http://192.0.2.7:3000' }).mail.from).to.equal('forum <noreply@localhost>');
    expect(loadConfig({ PUBLIC_URL: 'http://[::1]:3000' }).mail.from).to.equal('forum <noreply@localhost>');
    expect(loadConfig({ MAIL_FROM: 'Forum <mail@forum.example>' }).mail.from).to.equal('Forum <mail@forum.example>');
    expect(loadConfig({ FORUM_DATA_DIR: '/srv/forum' }).mail.folder).to.equal('/srv/forum/mail');
  });

  it('notification mail and reply by e-mail: the delay, TOPIC_URL, REPLY_BY_EMAIL and the inbound settings, checked', () => {
    const defaults = loadConfig({ PUBLIC_URL: 'https://forum.example/' }).mail;
    expect(defaults).to.include({
      delayMinutes: 10,
      topicUrl: 'https://forum.example/topics/{id}',
      replyAddress: null,
      inboundToken: null,
      inboundSmtpPort: null,
    });
    const set = loadConfig({
      EMAIL_DELAY_MINUTES: '0',
      TOPIC_URL: 'https://web.example/t/{id}',
      REPLY_BY_EMAIL: 'reply+%{key}@forum.example',
      INBOUND_EMAIL_TOKEN: 'a-token',
      INBOUND_SMTP_PORT: '2525',
    }).mail;
    expect(set).to.include({
      delayMinutes: 0,
      topicUrl: 'https://web.example/t/{id}',
      replyAddress: 'reply+%{key}@forum.example',
      inboundToken: 'a-token',
      inboundSmtpPort: 2525,
    });
    expect(() => loadConfig({ TOPIC_URL: 'https://web.example/t/' })).to.throw('TOPIC_URL must contain {id}');
    expect(() => loadConfig({ TOPIC_URL: 'not a url {id}' })).to.throw('TOPIC_URL is not a URL');
    for (const bad of ['reply@forum.example', 'reply+%{key}', 'reply+%{key}@localhost', '%{key}@a@b.c']) {
      expect(() => loadConfig({ REPLY_BY_EMAIL: bad }), bad).to.throw('REPLY_BY_EMAIL must be an address with %{key}');
    }
    expect(() => loadConfig({ EMAIL_DELAY_MINUTES: '-1' })).to.throw('EMAIL_DELAY_MINUTES');
  });
});

describe('reading back a written mail (forumctl mail show)', () => {
  it('unfolds headers, joins encoded words split inside a character, and decodes quoted-printable and base64 parts', () => {
    const subject = Buffer.from('确认你在 forum.example 的邮箱地址', 'utf8');
    // One character's three bytes split over two encoded words, as an encoder may split them.
    const first = subject.subarray(0, 4).toString('base64');
    const second = subject.subarray(4).toString('base64');
    const raw = [
      'From: forum <noreply@forum.example>',
      `Subject: =?UTF-8?B?${first}?=`,
      ` =?UTF-8?B?${second}?=`,
      'Content-Type: multipart/alternative;',
      ' boundary="--b"',
      '',
      '----b',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Hi alice,=0A=0Aa long line that is cut by a soft break=',
      ' here: caf=C3=A9',
      '----b',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('<p>你好</p>').toString('base64'),
      '----b--',
      '',
    ].join('\r\n');
    const message = parseMessage(Buffer.from(raw, 'latin1'));
    expect(message.headers.find((h) => h.name === 'Subject')!.value).to.equal('确认你在 forum.example 的邮箱地址');
    expect(message.headers.find((h) => h.name === 'Content-Type')!.value).to.equal('multipart/alternative; boundary="--b"');
    expect(message.text).to.equal('Hi alice,\n\na long line that is cut by a soft break here: café');
    expect(message.html).to.equal('<p>你好</p>');
  });
});

describe('reply and unsubscribe keys (HmacMailTokenKeys)', () => {
  const keys = new HmacMailTokenKeys('k'.repeat(32));
  const other = new HmacMailTokenKeys('o'.repeat(32));

  it('name their user and topic (or kind of mail), in an alphabet mail systems keep, whatever case they come back in', () => {
    const reply = keys.replyKey(12, 345);
    expect(reply).to.match(/^12-345-[0-9a-f]{32}$/);
    expect(keys.readReplyKey(reply)).to.deep.equal({ userId: 12, topicId: 345 });
    expect(keys.readReplyKey(reply.toUpperCase())).to.deep.equal({ userId: 12, topicId: 345 });
    const unsubscribe = keys.unsubscribeKey(12, 'digest');
    expect(unsubscribe).to.match(/^12-d-[0-9a-f]{32}$/);
    expect(keys.readUnsubscribeKey(unsubscribe)).to.deep.equal({ userId: 12, list: 'digest' });
    expect(keys.readUnsubscribeKey(keys.unsubscribeKey(12, 'notifications'))).to.deep.equal({
      userId: 12,
      list: 'notifications',
    });
  });

  it('read nothing forged, cut, under another key, or of the other kind', () => {
    const reply = keys.replyKey(12, 345);
    const mac = reply.split('-')[2]!;
    for (const forged of [`13-345-${mac}`, `12-346-${mac}`, reply.slice(0, -1), `${reply}0`, other.replyKey(12, 345), '', 'x']) {
      expect(keys.readReplyKey(forged), forged).to.equal(null);
    }
    expect(keys.readUnsubscribeKey(reply)).to.equal(null);
    expect(keys.readReplyKey(keys.unsubscribeKey(12, 'notifications'))).to.equal(null);
    const unsubscribe = keys.unsubscribeKey(12, 'notifications');
    expect(keys.readUnsubscribeKey(unsubscribe.replace('-n-', '-d-'))).to.equal(null);
  });
});
