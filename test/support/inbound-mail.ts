/**
 * Raw replies as mail clients write them, for the reply-by-e-mail tests: the MIME structure (multipart/alternative,
 * quoted-printable or base64 parts, charsets) and the quote each client puts under the new text. The shapes are
 * those of real messages in public corpora: Gmail's and Apple Mail's from github/email_reply_parser's and
 * discourse/email_reply_trimmer's test/emails, Outlook's (`divRplyFwdMsg`, "________________________________" +
 * From/Sent/To/Subject, Thread-Index) from mailing-list archives of Outlook senders (e.g. lists.freedesktop.org's
 * amd-gfx), QQ Mail's "原始邮件" and NetEase's "回复的原邮件" separators as email_reply_trimmer and talon collect them.
 * Addresses, dates and ids are ours.
 */

export interface ReplyParts {
  /** The user's address (From). */
  from: string;
  /** The reply address (To). */
  to: string;
  /** Without angle brackets. */
  messageId: string;
  /** What the person typed above the quote. */
  reply: string;
  /** Extra header lines (`Name: value`). */
  headers?: string[];
}

export type Client = 'gmail' | 'outlook' | 'apple' | 'qq' | '163';

const DATE = 'Thu, 26 Nov 2026 10:05:00 +0000';
const QUOTED = 'Is there a way to page the replies?';
const NOTIFICATION = 'forum <noreply@forum.test>';

/** Quoted-printable (RFC 2045 §6.7) of UTF-8 text, lines kept, soft breaks under 76 characters. */
export function quotedPrintable(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      let out = '';
      let width = 0;
      for (const byte of Buffer.from(line, 'utf8')) {
        const char = String.fromCharCode(byte);
        const piece =
          byte === 61 || byte > 126 || (byte < 32 && byte !== 9) ? `=${byte.toString(16).toUpperCase().padStart(2, '0')}` : char;
        if (width + piece.length > 75) {
          out += '=\r\n';
          width = 0;
        }
        out += piece;
        width += piece.length;
      }
      // A space at the end of a line would be lost in transit (RFC 2045 §6.7 rule 3).
      return out.replace(/ $/, '=20');
    })
    .join('\r\n');
}

function base64(text: string): string {
  return (
    Buffer.from(text, 'utf8')
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join('\r\n');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function htmlLines(text: string): string {
  return text
    .split('\n')
    .map((line) => escapeHtml(line))
    .join('<br>');
}

function message(headers: string[], body: string): Buffer {
  return Buffer.from(`${headers.join('\r\n')}\r\n\r\n${body.replace(/\r?\n/g, '\r\n')}\r\n`, 'utf8');
}

function alternative(
  boundary: string,
  text: { body: string; charset: string; encoding: 'quoted-printable' | 'base64' | '7bit' },
  html: { body: string; charset: string; encoding: 'quoted-printable' | 'base64' | '7bit' },
): string {
  const encode = (body: string, encoding: string) =>
    encoding === 'quoted-printable' ? quotedPrintable(body) : encoding === 'base64' ? base64(body) : body;
  return [
    `--${boundary}`,
    `Content-Type: text/plain; charset="${text.charset}"`,
    `Content-Transfer-Encoding: ${text.encoding}`,
    '',
    encode(text.body, text.encoding),
    '',
    `--${boundary}`,
    `Content-Type: text/html; charset="${html.charset}"`,
    `Content-Transfer-Encoding: ${html.encoding}`,
    '',
    encode(html.body, html.encoding),
    '',
    `--${boundary}--`,
  ].join('\n');
}

/** A reply as `client` writes it. */
export function replyFrom(client: Client, parts: ReplyParts): Buffer {
  const common = [
    `From: Bob Example <${parts.from}>`,
    `To: ${parts.to}`,
    `Subject: Re: [forum] A topic`,
    `Date: ${DATE}`,
    `Message-ID: <${parts.messageId}>`,
    'In-Reply-To: <topic-1@forum.test>',
    'References: <topic-1@forum.test>',
    'MIME-Version: 1.0',
    ...(parts.headers ?? []),
  ];
  switch (client) {
    case 'gmail': {
      // Gmail wraps its attribution before a long address, and marks the quote in HTML with gmail_quote.
      const boundary = '0000000000004b1c2d05f3a1b2c3';
      const text = `${parts.reply}\n\nOn Thu, Nov 26, 2026 at 10:00 AM forum via forum.test <\nnoreply@forum.test> wrote:\n\n> ${QUOTED}\n>\n`;
      const html =
        `<div dir="ltr">${htmlLines(parts.reply)}</div><br><div class="gmail_quote gmail_quote_container">` +
        '<div dir="ltr" class="gmail_attr">On Thu, Nov 26, 2026 at 10:00 AM forum &lt;<a href="mailto:noreply@forum.test">noreply@forum.test</a>&gt; wrote:<br></div>' +
        `<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">${QUOTED}</blockquote></div>\n`;
      return message(
        [...common, `Content-Type: multipart/alternative; boundary="${boundary}"`],
        alternative(
          boundary,
          { body: text, charset: 'UTF-8', encoding: 'quoted-printable' },
          { body: html, charset: 'UTF-8', encoding: 'quoted-printable' },
        ),
      );
    }
    case 'outlook': {
      const boundary = '_000_SN7PR11MB6800C1A2B3C4D5E6F7A8B9C0SN7PR11MB6800namp_';
      const text =
        `${parts.reply}\n\n________________________________\nFrom: ${NOTIFICATION}\nSent: Thursday, November 26, 2026 10:00 AM\n` +
        `To: Bob Example <${parts.from}>\nSubject: [forum] A topic\n\n${QUOTED}\n`;
      const html =
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><style type="text/css" style="display:none;"> P {margin-top:0;margin-bottom:0;} </style></head>' +
        `<body dir="ltr"><div class="elementToProof" style="font-family: Aptos, sans-serif; font-size: 12pt;">${htmlLines(parts.reply)}</div>` +
        '<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">' +
        '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" color="#000000"><b>From:</b> forum &lt;noreply@forum.test&gt;<br>' +
        '<b>Sent:</b> Thursday, November 26, 2026 10:00 AM<br><b>Subject:</b> [forum] A topic</font><div>&nbsp;</div></div>' +
        `<div>${QUOTED}</div></body></html>\n`;
      return message(
        [
          ...common,
          'Thread-Topic: [forum] A topic',
          'Thread-Index: AQHbX1a2b3c4d5e6f7g8h9i0j1k2l3m4n5o6',
          'Accept-Language: en-US',
          'Content-Language: en-US',
          'X-MS-Has-Attach:',
          `Content-Type: multipart/alternative; boundary="${boundary}"`,
        ],
        alternative(
          boundary,
          { body: text, charset: 'utf-8', encoding: 'base64' },
          { body: html, charset: 'utf-8', encoding: 'base64' },
        ),
      );
    }
    case 'apple': {
      const boundary = 'Apple-Mail-5E4D3C2B-1A09-4F8E-B7D6-C5B4A3928170';
      const text = `${parts.reply}\n\nSent from my iPhone\n\n> On Nov 26, 2026, at 10:00, forum <noreply@forum.test> wrote:\n>\n> ${QUOTED}\n`;
      const html =
        `<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head><body dir="auto"><div dir="ltr">${htmlLines(parts.reply)}</div>` +
        '<div dir="ltr"><br><div dir="ltr">Sent from my iPhone</div><blockquote type="cite">On Nov 26, 2026, at 10:00, forum &lt;noreply@forum.test&gt; wrote:<br><br></blockquote></div>' +
        `<blockquote type="cite"><div dir="ltr">${QUOTED}</div></blockquote></body></html>\n`;
      return message(
        [...common, 'X-Mailer: iPhone Mail (22B91)', `Content-Type: multipart/alternative; boundary=${boundary}`],
        alternative(
          boundary,
          { body: text, charset: 'utf-8', encoding: 'quoted-printable' },
          { body: html, charset: 'utf-8', encoding: 'quoted-printable' },
        ),
      );
    }
    case 'qq': {
      const boundary = '----=_NextPart_6745A0C1_0F2B3C48_1E2D3C4B';
      const text =
        `${parts.reply}\n\n\n------------------&nbsp;原始邮件&nbsp;------------------\n`.replace(/&nbsp;/g, '\u00a0') +
        `发件人: "forum" <noreply@forum.test>;\n发送时间: 2026年11月26日(星期四) 上午10:00\n收件人: "Bob" <${parts.from}>;\n主题: [forum] A topic\n\n${QUOTED}\n`;
      const html =
        `<meta http-equiv="Content-Type" content="text/html; charset=utf-8"><div>${htmlLines(parts.reply)}</div><div><br></div>` +
        '<div style="font-size: 12px;font-family: Arial Narrow;padding:2px 0 2px 0;">------------------&nbsp;原始邮件&nbsp;------------------</div>' +
        `<div style="font-size: 12px;background:#efefef;padding:8px;"><div><b>发件人:</b>&nbsp;"forum"&lt;noreply@forum.test&gt;;</div><div><b>发送时间:</b>&nbsp;2026年11月26日(星期四) 上午10:00</div></div><div><br></div>${QUOTED}\n`;
      return message(
        [...common, 'X-Mailer: QQMail 2.x', `Content-Type: multipart/alternative; boundary="${boundary}"`],
        alternative(
          boundary,
          { body: text, charset: 'utf-8', encoding: 'base64' },
          { body: html, charset: 'utf-8', encoding: 'base64' },
        ),
      );
    }
    case '163': {
      // NetEase Mail Master: its separator, the original's headers as a table, and its mobile signature.
      const boundary = '----=_Part_123456_789012345.1764151500000';
      const text = `${parts.reply}\n\n来自网易邮箱大师\n---- 回复的原邮件 ----\n| 发件人 | forum<noreply@forum.test> |\n| 日期 | 2026年11月26日 10:00 |\n| 收件人 | Bob<${parts.from}> |\n| 主题 | [forum] A topic |\n${QUOTED}\n`;
      const html =
        `<div style="line-height:1.7;font-size:14px;font-family:Arial">${htmlLines(parts.reply)}</div><div><br></div>` +
        '<div id="isReplyContent" style="font-size:12px"><div>---- 回复的原邮件 ----</div><table><tr><td>发件人</td><td>forum&lt;noreply@forum.test&gt;</td></tr></table>' +
        `<div>${QUOTED}</div></div>\n`;
      return message(
        [...common, `Content-Type: multipart/alternative; boundary="${boundary}"`],
        alternative(
          boundary,
          { body: text, charset: 'UTF-8', encoding: 'base64' },
          { body: html, charset: 'UTF-8', encoding: 'base64' },
        ),
      );
    }
  }
}

/** An HTML-only reply (no text part), as some webmail sends it: the HTML is turned into text. */
export function htmlOnlyReply(parts: ReplyParts): Buffer {
  const html =
    `<div>${htmlLines(parts.reply)}</div><div class="gmail_quote"><div class="gmail_attr">On Thu, Nov 26, 2026 at 10:00 AM forum wrote:</div>` +
    `<blockquote class="gmail_quote">${QUOTED}</blockquote></div>`;
  return message(
    [
      `From: <${parts.from}>`,
      `To: ${parts.to}`,
      'Subject: Re: A topic',
      `Message-ID: <${parts.messageId}>`,
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=UTF-8',
      'Content-Transfer-Encoding: quoted-printable',
      ...(parts.headers ?? []),
    ],
    quotedPrintable(html),
  );
}

/** A plain text mail (what `mail` or a script sends). */
export function plainMail(parts: ReplyParts & { subject?: string }): Buffer {
  return message(
    [
      `From: ${parts.from}`,
      `To: ${parts.to}`,
      `Subject: ${parts.subject ?? 'Re: A topic'}`,
      `Message-ID: <${parts.messageId}>`,
      ...(parts.headers ?? []),
    ],
    parts.reply,
  );
}

/** A reply with a large attachment (base64, as every client attaches). */
export function withAttachment(parts: ReplyParts, bytes: number): Buffer {
  const boundary = 'mixed-boundary-1';
  const head = [
    `From: ${parts.from}`,
    `To: ${parts.to}`,
    'Subject: Re: A topic',
    `Message-ID: <${parts.messageId}>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    parts.reply,
    `--${boundary}`,
    'Content-Type: application/octet-stream; name="big.bin"',
    'Content-Disposition: attachment; filename="big.bin"',
    'Content-Transfer-Encoding: base64',
    '',
    '',
  ].join('\r\n');
  // 57 bytes of data per 76-character line; the line's content does not matter, only its size.
  const line = `${Buffer.alloc(57, 7).toString('base64')}\r\n`;
  const lines = Math.ceil(bytes / 57);
  return Buffer.concat([Buffer.from(head), Buffer.from(line.repeat(lines)), Buffer.from(`--${boundary}--\r\n`)]);
}
