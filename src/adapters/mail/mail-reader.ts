import { createRequire } from 'node:module';
import type { AddressObject, HeaderValue, ParsedMail, SimpleParserOptions } from 'mailparser';
import type * as Mailparser from 'mailparser';
import { Parser } from 'htmlparser2';
import type { MailReader, ReadMail } from '../../application/mail/inbound.js';

/** mailparser, loaded at the first mail read: a process that reads none does not load it. */
let loaded: typeof Mailparser | undefined;
const simpleParser = (raw: Buffer, options: SimpleParserOptions): Promise<ParsedMail> =>
  (loaded ??= createRequire(import.meta.url)('mailparser') as typeof Mailparser).simpleParser(raw, options);

/**
 * Raw messages read with mailparser (nodemailer's, which reads MIME as the clients write it: quoted-printable,
 * base64, RFC 2047 words, charsets). No HTML is turned into text by mailparser (we do it below, cutting the
 * quoted message out), nothing is inlined, and nothing is fetched.
 */
export class MailparserReader implements MailReader {
  async read(raw: Buffer): Promise<ReadMail | null> {
    let parsed: ParsedMail;
    try {
      parsed = await simpleParser(raw, {
        skipHtmlToText: true,
        skipTextToHtml: true,
        skipImageLinks: true,
        skipTextLinks: true,
        keepCidLinks: true,
      });
    } catch {
      return null; // not a message mailparser can read at all
    }
    const from = addresses(parsed.from)[0] ?? null;
    // RFC 5322 §3.6 requires a From: without one it is not a message we can answer for anyone.
    if (from === null) return null;
    const contentType = parsed.headers.get('content-type') as { value?: string } | undefined;
    const html = typeof parsed.html === 'string' && parsed.html.trim() !== '' ? parsed.html : null;
    const text = typeof parsed.text === 'string' && parsed.text.trim() !== '' ? parsed.text : null;
    return {
      messageId: parsed.messageId ? parsed.messageId.replace(/^<|>$/g, '').trim() || null : null,
      from,
      recipients: [
        ...addresses(parsed.to),
        ...addresses(parsed.cc),
        ...addresses(parsed.headers.get('delivered-to')),
        ...headerLines(parsed, 'delivered-to').flatMap(bareAddresses),
        ...headerLines(parsed, 'x-original-to').flatMap(bareAddresses),
      ],
      subject: parsed.subject ?? '',
      text,
      html,
      htmlText: html === null ? null : htmlReplyText(html),
      autoSubmitted: lowerHeader(parsed, 'auto-submitted'),
      precedence: lowerHeader(parsed, 'precedence'),
      nullReturnPath: headerLines(parsed, 'return-path').some((value) => /^\s*<\s*>\s*$/.test(value)),
      autoReplyHeader: ['x-autoreply', 'x-autorespond'].some((name) => headerLines(parsed, name).length > 0),
      report:
        contentType?.value?.toLowerCase() === 'multipart/report' ||
        parsed.attachments.some((part) =>
          ['message/delivery-status', 'message/disposition-notification'].includes(part.contentType.toLowerCase()),
        ),
      attachmentSizes: parsed.attachments.map((part) => part.size),
    };
  }
}

/** The addresses of an address header (mailparser gives one object, or a list of them when the header repeats). */
function addresses(value: HeaderValue | AddressObject | AddressObject[] | undefined): string[] {
  if (value === undefined || value === null || typeof value !== 'object') return [];
  const objects = (Array.isArray(value) ? value : [value]) as AddressObject[];
  return objects.flatMap((object) =>
    (object.value ?? []).flatMap((entry) => [
      ...(entry.address ? [entry.address] : []),
      ...(entry.group ?? []).flatMap((member) => (member.address ? [member.address] : [])),
    ]),
  );
}

/** Every value of a header as written (after the colon), unfolded. */
function headerLines(parsed: ParsedMail, name: string): string[] {
  return parsed.headerLines
    .filter((line) => line.key === name)
    .map((line) => line.line.slice(line.line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' '));
}

function bareAddresses(value: string): string[] {
  return [...value.matchAll(/[^\s<>,;"]+@[^\s<>,;"]+/g)].map((match) => match[0]);
}

function lowerHeader(parsed: ParsedMail, name: string): string | null {
  const [value] = headerLines(parsed, name);
  const word = value?.split(';')[0]?.trim().toLowerCase();
  return word ? word : null;
}

/** Elements whose text no reader sees. */
const HIDDEN = new Set(['head', 'style', 'script', 'title', 'template']);
/** Elements after which a reader sees a line break. */
const BLOCKS = new Set([
  'p',
  'div',
  'br',
  'li',
  'ul',
  'ol',
  'tr',
  'table',
  'pre',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
]);

/**
 * Where HTML mail marks the message it quotes, from which the rest is dropped (talon's html_quotations.py cuts
 * the same: https://github.com/mailgun/talon):
 * - Gmail: `<div class="gmail_quote">` (its attribution and `<blockquote class="gmail_quote">` inside);
 * - Apple Mail and Thunderbird: `<blockquote type="cite">` (Apple puts its "On … wrote:" inside one), Thunderbird's
 *   attribution `<div class="moz-cite-prefix">`; Yahoo: `yahoo_quoted`;
 * - Outlook on the web and new Outlook: `<div id="appendonsend">`, `<div id="divRplyFwdMsg">` (after an `<hr>`),
 *   `mail-editor-reference-message-container`; ids may carry Outlook's `x_` prefix when quoted again;
 * - Outlook desktop: the From/Sent block inside `<div style="border:none;border-top:solid #E1E1E1 1.0pt;…">`
 *   (#B5C4DF in older versions);
 * - NetEase and other Chinese webmail: `isReplyContent`, `isForwardContent`, `reply139content`, `origbody`,
 *   `oriMsgHtmlSeperator`.
 */
function startsQuote(name: string, attributes: Record<string, string>): boolean {
  const classes = ` ${attributes.class ?? ''} `;
  if (name === 'blockquote' && (attributes.type?.toLowerCase() === 'cite' || /quote/i.test(classes))) return true;
  if (/\s(gmail_quote|gmail_quote_container|yahoo_quoted|moz-cite-prefix)\s/.test(classes)) return true;
  const id = attributes.id ?? '';
  if (
    /^(x_)*(divRplyFwdMsg|appendonsend|mail-editor-reference-message-container|isReplyContent|isForwardContent|reply139content|origbody|oriMsgHtmlSeperator)$/i.test(
      id,
    )
  ) {
    return true;
  }
  return name === 'div' && /border-top:\s*solid\s+#(?:e1e1e1|b5c4df)/i.test(attributes.style ?? '');
}

/** The HTML part as the text a reader sees, up to where the quoted message starts. */
export function htmlReplyText(html: string): string {
  const pieces: string[] = [];
  let hidden = 0;
  let pre = 0;
  let quoted = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (quoted) return;
        if (startsQuote(name, attributes)) {
          quoted = true;
          parser.pause();
          return;
        }
        if (HIDDEN.has(name)) hidden++;
        if (name === 'pre') pre++;
        if (name === 'li') pieces.push('\n- ');
        if (name === 'br') pieces.push('\n');
      },
      ontext(text) {
        if (quoted || hidden > 0) return;
        if (pre > 0) {
          pieces.push(text);
          return;
        }
        const collapsed = text.replace(/[ \t\r\n]+/g, ' ');
        const atLineStart = pieces.length === 0 || pieces[pieces.length - 1]!.endsWith('\n');
        pieces.push(atLineStart ? collapsed.replace(/^ /, '') : collapsed);
      },
      onclosetag(name) {
        if (quoted) return;
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        if (name === 'pre') pre = Math.max(0, pre - 1);
        // An item starts its own line (above); its end adds none, so that items stay together.
        if (BLOCKS.has(name) && name !== 'br' && name !== 'li') pieces.push('\n');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  if (!quoted) parser.end();
  return pieces
    .join('')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
