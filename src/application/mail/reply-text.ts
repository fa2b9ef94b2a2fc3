/**
 * The new text of a mail reply: the message as a person wrote it, without the message it quotes and without the
 * signature their client adds (contract §17: "with quoted text and signature removed"). A pure function of the
 * text part (or of the HTML part as text, from which the adapter already cut what HTML marks as quoted).
 *
 * There is no standard for any of this; each rule below is a format clients are seen to write, with where it
 * is documented or collected. The main public corpora are Discourse's email_reply_trimmer (the reply-by-mail of
 * a forum, like ours: https://github.com/discourse/email_reply_trimmer, lib/email_reply_trimmer/*_matcher.rb and
 * test/emails), Mailgun's talon (https://github.com/mailgun/talon, talon/quotations.py and html_quotations.py)
 * and GitHub's email_reply_parser (https://github.com/github/email_reply_parser, test/emails). We wrote the
 * rules rather than take `email-reply-parser` (crisp-oss): its 2.x needs Node 22, and its 1.x has none of the
 * Chinese clients' separators but 在…写道, and cuts at ordinary words such as "Regards".
 *
 * What it does, in order: the attribution line of a quote ("On … wrote:") and the `>` lines after it are dropped
 * wherever they are (a reply written below the quote survives); at a separator that starts a quoted message
 * without `>` marks (Outlook's, the Chinese clients'), or at a signature, the rest is dropped; then any `>` line
 * left; then blank lines at either end.
 */
export function replyText(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    // PostgreSQL text cannot hold NUL, and no person typed one.
    .replace(/\u0000/g, '')
    // Outlook and the HTML conversion write non-breaking spaces where a space was meant.
    .replace(/[\u00a0\u3000]/g, ' ')
    .split('\n');
  const kept: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const attribution = attributionAt(lines, i);
    if (attribution > 0) {
      let next = i + attribution;
      while (next < lines.length && lines[next]!.trim() === '') next++;
      // The attribution of a `>` quote: drop it and the quote, keep what follows (a reply written below it).
      if (next < lines.length && isQuoted(lines[next]!)) {
        while (next < lines.length && (isQuoted(lines[next]!) || lines[next]!.trim() === '')) next++;
        i = next;
        continue;
      }
      break; // the quote follows unmarked (Gmail's and Apple Mail's HTML as text): the rest is quoted
    }
    if (separatorAt(lines, i) || isSignature(lines[i]!)) break;
    kept.push(lines[i]!);
    i++;
  }
  const unquoted = kept.filter((line) => !isQuoted(line)).map((line) => line.trimEnd());
  // What a separator leaves behind it: blank lines and rules (Outlook's line of underscores before its headers).
  while (unquoted.length > 0 && /^[\s_\-=*]*$/.test(unquoted[unquoted.length - 1]!)) unquoted.pop();
  while (unquoted.length > 0 && unquoted[0]!.trim() === '') unquoted.shift();
  return unquoted.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** A line of a `>` quote (RFC 3676 §4.5), as every client marks quoted text in plain text. */
function isQuoted(line: string): boolean {
  return /^\s*>/.test(line);
}

/** Attribution lines are short; a longer line is text, whatever it ends with (and regexes stay cheap). */
const MAX_ATTRIBUTION = 400;

/**
 * How many lines (1 to 3) an attribution starting at line `i` spans, or 0.
 * - Gmail: "On Thu, Nov 26, 2026 at 10:00 AM Name <a@b> wrote:", which Gmail wraps before the address when it is
 *   long ("… Name <" / "a@b> wrote:"); Apple Mail: "On Nov 26, 2026, at 10:00, Name <a@b> wrote:" (talon's
 *   RE_ON_DATE_SMB_WROTE takes up to four lines for the same reason; email_reply_trimmer's
 *   ON_DATE_SOMEONE_WROTE_REGEXES, English).
 * - Gmail in Chinese: "在 2026年11月26日周四 10:00，Name <a@b> 写道："; NetEase 163/126:
 *   "在 2026-11-26 10:00:00，"Name" <a@b> 写道：" (email_reply_trimmer's Chinese ON_DATE_SOMEONE_WROTE;
 *   crisp-oss/email-reply-parser lib/regex.js `在…写道：`).
 * A date (a digit) is required, and an address for a wrapped one, so that a sentence starting "On" is text.
 */
function attributionAt(lines: readonly string[], i: number): number {
  const first = lines[i]!.replace(/^[\s>]*/, '');
  if (!/^(On\s|在\s*\S)/i.test(first)) return 0;
  let joined = '';
  for (let span = 1; span <= 3 && i + span <= lines.length; span++) {
    const line = lines[i + span - 1]!.trim();
    // A wrap inside "<address>" or after Chinese text had no space there.
    joined = span === 1 ? line : `${joined}${/[<\u3000-\u9fff\uff00-\uffef]$/.test(joined) ? '' : ' '}${line}`;
    if (joined.length > MAX_ATTRIBUTION) return 0;
    if (!/\d/.test(joined)) continue;
    if (span > 1 && !/@/.test(joined)) continue;
    if (/^[\s>]*On\s.+\bwrote\s*:\s*$/i.test(joined) || /^[\s>]*在.+写道\s*[：:]\s*$/.test(joined)) return span;
  }
  return 0;
}

/** Dashed separators before a quoted message, with no `>` marks after them. */
const SEPARATORS = [
  // Outlook desktop (plain text) and many others: "-----Original Message-----" (talon's SPLITTER_PATTERNS,
  // email_reply_trimmer's FORWARDED_EMAIL_REGEXES).
  /^[\s>*]*-{2,}\s*(?:Original|Reply) Message\s*-{2,}[\s*]*$/i,
  // QQ Mail: "------------------ 原始邮件 ------------------" (email_reply_trimmer, Chinese).
  /^[\s>*]*-{2,}\s*原始邮件\s*-{2,}[\s*]*$/,
  // NetEase 163/126 (and its Mail Master): "---- 回复的原邮件 ----".
  /^[\s>*]*-{2,}\s*(?:回复的原邮件|回复的原始邮件|原邮件)\s*-{2,}[\s*]*$/,
];

/** A header line of a quoted message: From first (in Outlook's English and Chinese, and Foxmail's, 发件人). */
const FROM_HEADER = /^[\s>*]*(?:From|发件人|寄件者)[\s*]*[:：]\s*\S/i;
const OTHER_HEADER = /^[\s>*]*(?:Sent|Date|To|Cc|Subject|发送时间|时间|日期|收件人|抄送|主题|寄件日期|收件者|主旨)[\s*]*[:：]/i;

/**
 * Whether a quoted message starts at line `i`: a dashed separator, or the header block Outlook (desktop and web:
 * "From: …", "Sent: …", "To: …", "Subject: …", below a line of underscores in Outlook on the web and mobile) and
 * Foxmail ("发件人：…", "发送时间：…", "收件人：…", "主题：…") write above the message they quote
 * (email_reply_trimmer's EmailHeaderMatcher; talon's `From:`/`Date:` splitters). A From line counts only with
 * another header within the next four lines, so that "From: …" in a person's own text stays.
 */
function separatorAt(lines: readonly string[], i: number): boolean {
  const line = lines[i]!;
  if (SEPARATORS.some((pattern) => pattern.test(line))) return true;
  if (!FROM_HEADER.test(line) || line.length > MAX_ATTRIBUTION) return false;
  return lines.slice(i + 1, i + 5).some((next) => OTHER_HEADER.test(next));
}

/**
 * Signatures and the lines mobile clients add, from which the rest is dropped:
 * - "-- " alone on a line (RFC 3676 §4.3; clients that trim trailing spaces leave "--": github/email_reply_parser
 *   treats both as a signature);
 * - "Sent from my iPhone", "Sent from Mail for Windows", "Sent via …" (email_reply_trimmer's SignatureMatcher);
 * - "Get Outlook for iOS" / "Get Outlook for Android", with the link Outlook mobile writes after it;
 * - "发自我的iPhone", "发自我的 iPad" (Apple Mail in Simplified Chinese), "從我的 iPhone 傳送" (Traditional);
 * - "来自网易邮箱大师", "来自 QQ邮箱", "来自我的华为邮箱" (the Chinese providers' mobile apps).
 * Each is a short line of its own: the same words inside a sentence are text.
 */
const SIGNATURES = [
  /^--\s*$/,
  /^\s*Sent (?:from|via) .{1,60}$/i,
  /^\s*Get Outlook for (?:iOS|Android)\s*(?:<[^>]*>)?\s*$/i,
  /^\s*(?:发自|來自|来自)我的\s*\S.{0,30}$/,
  /^\s*(?:從|从)我的\s*\S.{0,30}(?:傳送|发送)\s*$/,
  /^\s*發自我的\s*\S.{0,30}$/,
  /^\s*来自\s*\S.{0,20}邮箱.{0,20}$/,
];

function isSignature(line: string): boolean {
  return line.length <= 120 && SIGNATURES.some((pattern) => pattern.test(line));
}
