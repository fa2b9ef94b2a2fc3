/** Ports the use cases need from the outside world; the domain never mentions them. */

export interface Clock {
  now(): Date;
}
export const Clock = Symbol.for('Clock');

/** Runs `work` as one unit: all of its writes land, or none (a transaction, or a single statement). */
export interface UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T>;
}
export const UnitOfWork = Symbol.for('UnitOfWork');

export interface RenderedMarkdown {
  /** Sanitized HTML. */
  html: string;
  /** Logins written as `@login` in the text (not in code or links), in order of appearance, as written. */
  mentions: string[];
  /** How many links to elsewhere (absolute http or https URLs) it holds: new accounts may post only a few (§18). */
  links: number;
}

/** Markdown to sanitized HTML, and the mentions it contains. */
export interface MarkdownRenderer {
  render(markdown: string): RenderedMarkdown;
}
export const MarkdownRenderer = Symbol.for('MarkdownRenderer');

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a hash of a kind it does not know; never throws. */
  verify(hash: string, password: string): Promise<boolean>;
  /** Whether `hash` is of another kind than `hash` makes (an imported devise hash): to replace once the password is known. */
  needsRehash(hash: string): boolean;
}
export const PasswordHasher = Symbol.for('PasswordHasher');

/**
 * Where uploaded files are kept (contract §19), chosen by UPLOADS_STORE: a folder this service serves (the default),
 * or an S3-compatible store that every host reaches. Keys are the service's own, never a client's name; a key always
 * holds the same bytes (uploads/ports.ts: fileKey). A store that cannot be reached throws Unavailable.
 */
export interface UploadStorage {
  /** Stores `bytes` under `key` (a key always holds the same bytes: storing it again changes nothing). */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The file under `key`, or null when there is none. */
  read(key: string): Promise<{ bytes: Uint8Array; contentType: string } | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes the file under `key`, if there is one. */
  remove(key: string): Promise<void>;
  /** Every key stored, in no particular order (a migration walks them). */
  keys(): AsyncIterable<string>;
  /** The absolute URL clients fetch `key` from. */
  urlOf(key: string): string;
}
export const UploadStorage = Symbol.for('UploadStorage');

/**
 * How a secret is kept (tokens, client secrets): the digest of its UTF-8 bytes by this algorithm, in this encoding.
 * One definition for the code that digests (SecretGenerator) and the statements that do (the homeland import digests
 * homeland's tokens where they are, so that none leaves its database in clear).
 */
export const SECRET_DIGEST = { algorithm: 'sha256', encoding: 'hex' } as const;

/** Opaque random secrets (tokens, client secrets) and their one-way digests for storage (SECRET_DIGEST). */
export interface SecretGenerator {
  generate(): string;
  digest(secret: string): string;
}
export const SecretGenerator = Symbol.for('SecretGenerator');

/**
 * The tokens mail links carry (verify an address, reset a password, confirm a new address; contract §16b). A token
 * is derived from its random id under the server's secret key (SECRET_KEY): the database keeps the id and the
 * token's digest, never the token, so neither a mail job nor a stolen dump holds a usable link; the mail sender,
 * given the id, derives the token again to write the link.
 */
export interface MailTokenKeys {
  /** A fresh random id (128 bits) for a token row. */
  newId(): string;
  /** The token a link carries for this id. */
  tokenFor(id: string): string;
  /** What the database keeps of a token, and looks a presented one up by. */
  digest(token: string): string;
  /**
   * The key of a reply-by-mail address (contract §17): this user answering this topic, unguessable, kept nowhere.
   * Lower-case letters, digits and `-` only, since mail systems may fold a local part's case.
   */
  replyKey(userId: number, topicId: number): string;
  /** The user and topic a reply key names, or null for anything that is not one of ours. */
  readReplyKey(key: string): { userId: number; topicId: number } | null;
  /** The key of an unsubscribe link (and of its mailto address): this user leaving this kind of mail. Same alphabet. */
  unsubscribeKey(userId: number, list: MailList): string;
  /** The user and kind of mail an unsubscribe key names, or null. */
  readUnsubscribeKey(key: string): { userId: number; list: MailList } | null;
}
/** The kinds of mail a person can leave from the mail itself: notification mail, digests, and messages (§24). */
export const MAIL_LISTS = ['notifications', 'digest', 'messages'] as const;
export type MailList = (typeof MAIL_LISTS)[number];
export const MailTokenKeys = Symbol.for('MailTokenKeys');

/**
 * Secrets the service must use again, not only check (a sign-in provider's client secret, contract §25): sealed
 * (encrypted and authenticated) under the server's secret key, so that the database never holds them in clear.
 * `open` throws on anything it did not seal under this key.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}
export const SecretBox = Symbol.for('SecretBox');
