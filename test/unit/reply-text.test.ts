import { expect } from 'chai';
import { replyText } from '../../src/application/mail/reply-text.js';
import { htmlReplyText } from '../../src/adapters/mail/mail-reader.js';

/**
 * Each case is a reply as the client writes it (the quote header and separators as in the sources cited in
 * src/application/mail/reply-text.ts), with the new text the forum must keep.
 */
describe('replyText: the new text of a mail reply, without quote or signature', () => {
  const quoted = '> The original question\n> on two lines\n';

  it('Gmail: "On <date> <name> <address> wrote:" and the > quote', () => {
    const text = `Yes, it works now.\n\nOn Thu, Nov 26, 2026 at 10:00 AM Alice Example <alice@example.com> wrote:\n\n${quoted}`;
    expect(replyText(text)).to.equal('Yes, it works now.');
  });

  it('Gmail: the attribution wrapped over two lines (inside the address, or before it)', () => {
    const inside = `Thanks!\n\nOn Thu, Nov 26, 2026 at 10:00 AM Alice Example With A Long Name <\nalice@example.com> wrote:\n\n${quoted}`;
    expect(replyText(inside)).to.equal('Thanks!');
    const before = `Thanks!\n\nOn Thu, Nov 26, 2026 at 10:00 AM Alice Example With A Long Name\n<alice@example.com> wrote:\n${quoted}`;
    expect(replyText(before)).to.equal('Thanks!');
  });

  it('Gmail in Chinese: "在 2026年11月26日周四 10:00，Name <a@b> 写道："', () => {
    const text = `好的，谢谢！\n\n在 2026年11月26日周四 10:00，Alice <alice@example.com> 写道：\n\n${quoted}`;
    expect(replyText(text)).to.equal('好的，谢谢！');
  });

  it('Apple Mail: "On Nov 26, 2026, at 10:00, Name <a@b> wrote:" (with "Sent from my iPhone" above it)', () => {
    const text = `Agreed.\n\nSent from my iPhone\n\nOn Nov 26, 2026, at 10:00, Alice <alice@example.com> wrote:\n\n${quoted}`;
    expect(replyText(text)).to.equal('Agreed.');
    const plain = `Agreed.\n\n> On Nov 26, 2026, at 10:00, Alice <alice@example.com> wrote:\n>\n${quoted}`;
    expect(replyText(plain)).to.equal('Agreed.');
  });

  it('Outlook desktop: "-----Original Message-----" and the unquoted message under it', () => {
    const text =
      'See the attached log.\n\n-----Original Message-----\nFrom: Alice <alice@example.com>\nSent: Thursday, November 26, 2026 10:00 AM\n' +
      'To: forum <reply+1-2-abc@forum.example>\nSubject: RE: A topic\n\nThe original question\n';
    expect(replyText(text)).to.equal('See the attached log.');
  });

  it('Outlook on the web and mobile: a line of underscores, then From/Sent/To/Subject', () => {
    const text =
      'Fixed in 2.1.\n\nGet Outlook for iOS<https://aka.ms/o0ukef>\n________________________________\nFrom: forum <noreply@forum.example>\n' +
      'Sent: Thursday, November 26, 2026 10:00:00 AM\nTo: Bob <bob@example.com>\nSubject: A topic\n\nThe original question\n';
    expect(replyText(text)).to.equal('Fixed in 2.1.');
    const bare =
      'Fixed in 2.1.\n\n________________________________\nFrom: forum <noreply@forum.example>\nSent: Thursday\n\nThe original question\n';
    expect(replyText(bare)).to.equal('Fixed in 2.1.');
  });

  it('QQ Mail: "------------------ 原始邮件 ------------------" and its 发件人/发送时间 block', () => {
    const text =
      '收到，明天试试。\n\n------------------ 原始邮件 ------------------\n发件人: "forum" <noreply@forum.example>;\n' +
      '发送时间: 2026年11月26日(星期四) 上午10:00\n收件人: "Bob" <bob@example.com>;\n主题: A topic\n\n原来的问题\n';
    expect(replyText(text)).to.equal('收到，明天试试。');
  });

  it('NetEase 163/126: "---- 回复的原邮件 ----", and the "在 … 写道：" form', () => {
    const separator =
      '可以的。\n\n---- 回复的原邮件 ----\n| 发件人 | forum<noreply@forum.example> |\n| 日期 | 2026年11月26日 10:00 |\n\n原来的问题\n';
    expect(replyText(separator)).to.equal('可以的。');
    const wrote = `可以的。\n\n在 2026-11-26 10:00:00，"Alice" <alice@example.com> 写道：\n${quoted}`;
    expect(replyText(wrote)).to.equal('可以的。');
  });

  it('Foxmail: the "发件人：…" header block, without a separator line', () => {
    const text = '我同意。\n\n发件人：forum\n发送时间：2026-11-26 10:00\n收件人：Bob\n主题：A topic\n\n原来的问题\n';
    expect(replyText(text)).to.equal('我同意。');
  });

  it('signatures: "-- ", "--", "Sent from my iPhone", "Get Outlook for Android", 发自我的iPhone, 发自我的 iPad, 来自…邮箱', () => {
    expect(replyText('Done.\n\n-- \nBob Example\nExample Corp\n')).to.equal('Done.');
    expect(replyText('Done.\n--\nBob\n')).to.equal('Done.');
    expect(replyText('Done.\n\nSent from my iPhone\n')).to.equal('Done.');
    expect(replyText('Done.\n\nGet Outlook for Android\n')).to.equal('Done.');
    expect(replyText('好的\n\n发自我的iPhone\n')).to.equal('好的');
    expect(replyText('好的\n\n发自我的 iPad\n')).to.equal('好的');
    expect(replyText('好的\n\n来自网易邮箱大师\n')).to.equal('好的');
    expect(replyText('好的\n\n来自 QQ邮箱\n')).to.equal('好的');
  });

  it('> quoted lines wherever they are: a reply written below the quote, or between its parts, stays', () => {
    const below = `On Thu, Nov 26, 2026 at 10:00 AM Alice <alice@example.com> wrote:\n${quoted}\nMy answer, below.`;
    expect(replyText(below)).to.equal('My answer, below.');
    expect(replyText('> first question\nfirst answer\n> second question\nsecond answer')).to.equal('first answer\nsecond answer');
  });

  it('keeps a person’s own words that merely look like markers', () => {
    const text =
      'On Monday I tried it again.\nFrom: the docs, the limit is 10.\nI sent from my laptop a longer log, see below.\n' +
      '在这里写道理也行';
    expect(replyText(text)).to.equal(text);
    expect(replyText('Use `--` to end the options:\n\n    forumctl -- --help')).to.equal(
      'Use `--` to end the options:\n\n    forumctl -- --help',
    );
  });

  it('is empty when only quote and signature were sent, and normalizes line ends and NBSPs', () => {
    expect(replyText(`\n\nOn Thu, Nov 26, 2026 at 10:00 AM Alice <alice@example.com> wrote:\n${quoted}`)).to.equal('');
    expect(replyText('\r\n-- \r\nBob\r\n')).to.equal('');
    expect(replyText('a\u00a0b\r\nc\u0000')).to.equal('a b\nc');
  });
});

describe('htmlReplyText: an HTML part as text, up to the quote the client marked', () => {
  it('Gmail: stops at div.gmail_quote', () => {
    const html =
      '<div dir="ltr">Yes, <b>it works</b> now.<br><br>Bob</div><br><div class="gmail_quote gmail_quote_container">' +
      '<div dir="ltr" class="gmail_attr">On Thu, Nov 26, 2026 at 10:00 AM Alice &lt;<a href="mailto:alice@example.com">alice@example.com</a>&gt; wrote:<br></div>' +
      '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">The original question</blockquote></div>';
    expect(htmlReplyText(html)).to.equal('Yes, it works now.\n\nBob');
  });

  it('Apple Mail: stops at blockquote type=cite (its attribution is inside one)', () => {
    const html =
      '<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"><style>p{}</style></head>' +
      '<body dir="auto"><div>Agreed.</div><div><br></div><div><br><blockquote type="cite">On Nov 26, 2026, at 10:00, Alice ' +
      '&lt;alice@example.com&gt; wrote:<br><br></blockquote></div><blockquote type="cite"><div>The original</div></blockquote></body></html>';
    expect(htmlReplyText(html)).to.equal('Agreed.');
  });

  it('Outlook on the web: stops at #appendonsend / the hr and #divRplyFwdMsg', () => {
    const html =
      '<div style="font-family: Calibri">Fixed in&nbsp;2.1.</div><div id="appendonsend"></div>' +
      '<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri"><b>From:</b> forum</font></div>' +
      '<div>The original question</div>';
    expect(htmlReplyText(html)).to.equal('Fixed in\u00a02.1.');
  });

  it('Outlook desktop: stops at the border-top separator of its From/Sent block', () => {
    const html =
      '<div class="WordSection1"><p class="MsoNormal">See the log.<o:p></o:p></p><p class="MsoNormal"><o:p>&nbsp;</o:p></p>' +
      '<div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in"><p class="MsoNormal"><b>From:</b> forum' +
      '<br><b>Sent:</b> Thursday</p></div></div><p class="MsoNormal">The original question</p></div>';
    expect(replyText(htmlReplyText(html))).to.equal('See the log.');
  });

  it('keeps lists and preformatted text readable, and drops what no reader sees', () => {
    const html = '<title>x</title><script>alert(1)</script><p>Steps:</p><ul><li>one</li><li>two</li></ul><pre>a  b\n  c</pre>';
    expect(htmlReplyText(html)).to.equal('Steps:\n\n- one\n- two\na  b\n  c');
  });
});
