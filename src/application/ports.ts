/** Ports the use cases need from the outside world; the domain never mentions them. */

export interface Clock {
  now(): Date;
}
export const Clock = Symbol.for('Clock');

/** Runs `work` in one database transaction: all of its writes land, or none. */
export interface UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T>;
}
export const UnitOfWork = Symbol.for('UnitOfWork');

export interface RenderedMarkdown {
  /** Sanitized HTML. */
  html: string;
  /** Logins written as `@login` in the text (not in code or links), in order of appearance, as written. */
  mentions: string[];
}

/** Markdown to sanitized HTML, and the mentions it contains. */
export interface MarkdownRenderer {
  render(markdown: string): RenderedMarkdown;
}
export const MarkdownRenderer = Symbol.for('MarkdownRenderer');

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}
export const PasswordHasher = Symbol.for('PasswordHasher');

/** Opaque random secrets (tokens, client secrets) and their one-way digests for storage. */
export interface SecretGenerator {
  generate(): string;
  digest(secret: string): string;
}
export const SecretGenerator = Symbol.for('SecretGenerator');
