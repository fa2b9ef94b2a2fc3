/**
 * Password hashes imported from homeland (contract §20, docs/import-homeland.md "Passwords"), which devise made.
 *
 * devise 4.9.4 (`Devise::Encryptor.digest`): `password = "#{password}#{klass.pepper}"` when a pepper is set, then
 * `::BCrypt::Password.create(password, cost: klass.stretches)`. bcrypt uses at most the first 72 bytes of its input
 * (the gem's `hash_secret` even cuts them itself, `secret.byteslice(0, 72)`), so what it saw is the UTF-8 bytes of
 * password + pepper cut at 72 bytes: by bytes, so a multi-byte character may be cut in two.
 *
 * Sign-in needs the pepper long after the import ran, and needs no configuration: it travels in the stored hash
 * itself, `$devise-bcrypt$<base64url of the pepper's UTF-8, no padding>` followed by devise's bcrypt hash (which
 * starts with `$2a$`). The first successful sign-in replaces the whole of it with our own argon2id hash.
 *
 * Pure: `Buffer` is Node's global (no import, so the application keeps to its dependency rule).
 */

/** What starts every imported devise hash. */
export const DEVISE_BCRYPT_SCHEME = '$devise-bcrypt$';

/** bcrypt's own limit on its input. */
const BCRYPT_INPUT_BYTES = 72;

/** A modular-crypt bcrypt hash as devise's bcrypt gem writes it: version, two-digit cost, 22 salt + 31 hash chars. */
const BCRYPT_HASH = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** The part of a stored hash before devise's bcrypt hash, so that an import can write `prefix || encrypted_password`. */
export function devisePasswordPrefix(pepper: string): string {
  return DEVISE_BCRYPT_SCHEME + Buffer.from(pepper, 'utf8').toString('base64url');
}

/** The stored form of devise's `bcryptHash` made with `pepper`, or null when `bcryptHash` is not a bcrypt hash. */
export function devisePasswordHash(pepper: string, bcryptHash: string): string | null {
  return BCRYPT_HASH.test(bcryptHash) ? devisePasswordPrefix(pepper) + bcryptHash : null;
}

/** The pepper and bcrypt hash of a stored devise hash, or null when `stored` is not one. */
export function parseDevisePasswordHash(stored: string): { pepper: string; bcrypt: string } | null {
  if (!stored.startsWith(DEVISE_BCRYPT_SCHEME)) return null;
  const rest = stored.slice(DEVISE_BCRYPT_SCHEME.length);
  // base64url has no `$`: the first one starts the bcrypt hash.
  const end = rest.indexOf('$');
  if (end < 0) return null;
  const encoded = rest.slice(0, end);
  const bcrypt = rest.slice(end);
  if (!BASE64URL.test(encoded) || !BCRYPT_HASH.test(bcrypt)) return null;
  const pepper = Buffer.from(encoded, 'base64url').toString('utf8');
  // Only the one encoding devisePasswordPrefix writes (this also refuses bytes that are not UTF-8).
  if (devisePasswordPrefix(pepper) !== DEVISE_BCRYPT_SCHEME + encoded) return null;
  return { pepper, bcrypt };
}

/**
 * The bytes bcrypt saw when devise hashed `password` with `pepper`: at most 72, built here rather than left to a
 * bcrypt library's handling of longer input. A password of 72 bytes or more leaves no room for the pepper.
 */
export function deviseBcryptInput(password: string, pepper: string): Buffer {
  const bytes = Buffer.from(password + pepper, 'utf8');
  // The bcrypt gem cuts at 72 bytes, then hands the string to C: older gems (`StringValuePtr`) let a NUL end it
  // there; newer ones (`StringValueCStr`, 3.1.18) refuse it, so no such hash exists and the cut changes nothing.
  const nul = bytes.indexOf(0);
  return bytes.subarray(0, Math.min(nul < 0 ? bytes.length : nul, BCRYPT_INPUT_BYTES));
}
