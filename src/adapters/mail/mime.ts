/*
 * Reads back the messages EmlFolder writes (nodemailer's own output: headers, then either one part or a
 * multipart/alternative of a text and an HTML part; quoted-printable, base64 or plain; RFC 2047 words in headers).
 * Enough for `forumctl mail list/show`, not a general MIME parser (the tests read the same files with mailparser).
 */

export interface Header {
  name: string;
  value: string;
}

export interface ParsedMessage {
  headers: Header[];
  text: string;
  html: string;
}

/** The top-level headers of a message, unfolded and decoded. */
export function readHeaders(raw: Buffer): Header[] {
  return splitEntity(raw.toString('latin1')).headers;
}

export function parseMessage(raw: Buffer): ParsedMessage {
  const entity = splitEntity(raw.toString('latin1'));
  const parts = { text: '', html: '' };
  collect(entity, parts);
  return { headers: entity.headers, ...parts };
}

interface Entity {
  headers: Header[];
  /** The body as the file holds it, one character per byte (latin1), decoded later. */
  body: string;
}

function splitEntity(source: string): Entity {
  const match = /\r?\n\r?\n/.exec(source);
  const head = match ? source.slice(0, match.index) : source;
  const body = match ? source.slice(match.index + match[0].length) : '';
  const headers: Header[] = [];
  for (const line of head.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && headers.length > 0) headers[headers.length - 1]!.value += ` ${line.trim()}`;
    else {
      const colon = line.indexOf(':');
      if (colon > 0) headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
    }
  }
  return { headers: headers.map((h) => ({ name: h.name, value: decodeWords(utf8(h.value)) })), body };
}

function header(entity: Entity, name: string): string {
  return entity.headers.find((h) => h.name.toLowerCase() === name)?.value ?? '';
}

function collect(entity: Entity, parts: { text: string; html: string }): void {
  const type = header(entity, 'content-type') || 'text/plain';
  const mediaType = type.split(';')[0]!.trim().toLowerCase();
  if (mediaType.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (!boundary) return;
    const sections = entity.body.split(new RegExp(`\\r?\\n?--${escapeRegExp(boundary)}(?:--)?[ \\t]*\\r?\\n?`));
    // The first section is the preamble, the last the epilogue.
    for (const section of sections.slice(1, -1)) collect(splitEntity(section), parts);
    return;
  }
  const content = decodeBody(entity.body, header(entity, 'content-transfer-encoding').toLowerCase());
  if (mediaType === 'text/plain' && parts.text === '') parts.text = content;
  else if (mediaType === 'text/html' && parts.html === '') parts.html = content;
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return quotedPrintable(body.replace(/=\r?\n/g, ''));
  return utf8(body);
}

function quotedPrintable(text: string): string {
  return qpBytes(text).toString('utf8');
}

function qpBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' ? text.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(text.charCodeAt(i) & 0xff);
  }
  return Buffer.from(bytes);
}

const WORD = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;

/**
 * RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`): whitespace between two of them goes, and a run of
 * them is decoded as one byte string (a character may be split between two words).
 */
function decodeWords(value: string): string {
  return value.replace(/=\?[^?]+\?[BbQq]\?[^?]*\?=(?:\s*=\?[^?]+\?[BbQq]\?[^?]*\?=)*/g, (run) =>
    Buffer.concat(
      [...run.matchAll(WORD)].map(([, , kind, text]) =>
        kind!.toUpperCase() === 'B' ? Buffer.from(text!, 'base64') : qpBytes(text!.replace(/_/g, ' ')),
      ),
    ).toString('utf8'),
  );
}

/** A header or an 8-bit body read as latin1, back to the UTF-8 it was. */
function utf8(latin1: string): string {
  return Buffer.from(latin1, 'latin1').toString('utf8');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
