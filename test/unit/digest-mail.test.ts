import { expect } from 'chai';
import { digestMail, excerpt, type DigestEntry } from '../../src/adapters/mail/compose/letters.js';
import { renderMail } from '../../src/adapters/mail/compose/layout.js';

const recipient = { site: 'forum.example', siteUrl: 'https://forum.example', login: 'alice', name: 'Alice' };

const entry = (title: string, extra: Partial<DigestEntry> = {}): DigestEntry => ({
  title,
  url: `https://forum.example/t/${title.length}`,
  nodeName: 'general',
  author: 'bob',
  repliesCount: 1,
  likesCount: 0,
  text: 'Some text.',
  ...extra,
});

const facts = (topics: DigestEntry[], period: 'daily' | 'weekly' = 'weekly') => ({
  ...recipient,
  period,
  topics,
  unsubscribeUrl: 'https://forum.example/account/unsubscribe?key=1-d-abc',
  settingsUrl: 'https://forum.example/account/settings',
});

describe('the digest mail', () => {
  describe('excerpt', () => {
    it('keeps short text whole, on one line', () => {
      expect(excerpt('A short\n\n  text.')).to.equal('A short text.');
    });

    it('cuts Latin text at a space near the width, with an ellipsis', () => {
      const text = 'word '.repeat(100);
      const cut = excerpt(text, 42);
      expect(cut).to.equal(`${'word '.repeat(8).trim()}…`);
    });

    it('cuts Chinese anywhere, counting each character twice', () => {
      const cut = excerpt('数据库'.repeat(50), 20);
      expect(cut).to.equal(`${'数据库'.repeat(50).slice(0, 10)}…`);
    });

    it('cuts a run without spaces where it must', () => {
      expect(excerpt('x'.repeat(300), 50)).to.equal(`${'x'.repeat(50)}…`);
    });
  });

  it('names one topic or several in the subject, by period and language', () => {
    const one = renderMail(digestMail, 'en', facts([entry('Only one')], 'daily'));
    expect(one.subject).to.equal('Today at forum.example: Only one');
    const three = renderMail(digestMail, 'en', facts([entry('First'), entry('Second'), entry('Third')]));
    expect(three.subject).to.equal('This week at forum.example: First and 2 more topics');
    const zh = renderMail(digestMail, 'zh-CN', facts([entry('第一'), entry('第二')]));
    expect(zh.subject).to.equal('forum.example 本周热门：第一 等 2 个话题');
  });

  it('says why it comes: the weekly digest is the forum’s default, a daily one was chosen; both say where to change it', () => {
    const said = (period: 'daily' | 'weekly', locale: 'en' | 'zh-CN' = 'en') =>
      renderMail(digestMail, locale, facts([entry('One')], period)).text.replace(/\s+/g, ' ');
    expect(said('weekly')).to.contain(
      'A weekly digest is the forum’s default until you choose otherwise: change it in the mail settings.',
    );
    expect(said('daily')).to.contain('You chose it in the mail settings, where you can change it.').and.not.contain('default');
    expect(said('weekly', 'zh-CN')).to.contain('每周摘要是论坛的默认设置');
    expect(said('daily', 'zh-CN')).to.contain('这是你在邮件设置中的选择');
  });

  it('writes each topic in both parts: linked title, node, author, counts, excerpt; escaped in HTML', () => {
    const mail = renderMail(
      digestMail,
      'en',
      facts([
        entry('<script>x</script>', { repliesCount: 2, likesCount: 1, text: 'a & b', url: 'https://f.example/t/1?a=1&b=2' }),
      ]),
    );
    expect(mail.text).to.contain(
      '1. <script>x</script>\n   general · bob · 2 replies · 1 like\n   a & b\n   https://f.example/t/1?a=1&b=2',
    );
    expect(mail.html).to.contain('<a href="https://f.example/t/1?a=1&amp;b=2"').and.contain('&lt;script&gt;x&lt;/script&gt;');
    expect(mail.html).to.not.contain('<script>');
    expect(mail.html).to.contain('a &amp; b').and.contain('general · bob · 2 replies · 1 like');
    // The way out, in both parts.
    expect(mail.text).to.contain('Unsubscribe from these digests:\nhttps://forum.example/account/unsubscribe?key=1-d-abc');
    expect(mail.html).to.contain('href="https://forum.example/account/unsubscribe?key=1-d-abc"');
  });
});
