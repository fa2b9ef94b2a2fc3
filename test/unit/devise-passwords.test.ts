import { hash as bcryptHash, verify as bcryptVerify } from '@node-rs/bcrypt';
import { expect } from 'chai';
import {
  DEVISE_BCRYPT_SCHEME,
  deviseBcryptInput,
  devisePasswordHash,
  devisePasswordPrefix,
  parseDevisePasswordHash,
} from '../../src/application/accounts/devise-passwords.js';
import type { Presence } from '../../src/application/accounts/presence.js';
import type { CredentialThrottle } from '../../src/application/oauth/credential-throttle.js';
import { AccountNotActive, PasswordLogin } from '../../src/application/oauth/password-login.js';
import type { CheckSecondFactor } from '../../src/application/second-factors/check-second-factor.js';
import type { PasswordHasher } from '../../src/application/ports.js';
import { Argon2PasswordHasher } from '../../src/adapters/system/argon2-hasher.js';
import { DeviseBcryptVerifier } from '../../src/adapters/system/devise-bcrypt-verifier.js';
import { PasswordHashers } from '../../src/adapters/system/password-hashers.js';
import { User } from '../../src/domain/users/user.js';
import type { UserRepository } from '../../src/domain/users/user-repository.js';
import { fixedClock, immediateUnitOfWork } from '../support/fakes.js';

/** Homeland's shipped pepper (config/initializers/devise.rb). */
const HOMELAND_PEPPER =
  'c7d4ed7d1ea1a7fee16e8a7ef80ca1d391fc3bb8e79a2da9ca23a68dc5c82e6cf3715a6f3d8369335372ab8be36a526bc2e778f17075ed241a1c14c5b93eea60';

const hasher: PasswordHasher = new PasswordHashers(new Argon2PasswordHasher(), new DeviseBcryptVerifier());

/** A devise hash as our bcrypt library makes it (cost 4, quick), written `$2a$` as the bcrypt gem writes it. */
async function deviseHash(password: string, pepper: string): Promise<string> {
  const made = (await bcryptHash(deviseBcryptInput(password, pepper), 4)).replace('$2b$', '$2a$');
  return devisePasswordHash(pepper, made)!;
}

/**
 * Made by Ruby's bcrypt gem 3.1.18 (Debian's ruby-bcrypt, ruby 3.1) exactly as devise 4.9.4's `Devise::Encryptor.digest`
 * does: `::BCrypt::Password.create("#{password}#{pepper}", cost: stretches).to_s`.
 */
const RUBY_VECTORS: { password: string; pepper: string; bcrypt: string }[] = [
  {
    password: 'correct horse battery',
    pepper: HOMELAND_PEPPER,
    bcrypt: '$2a$10$4n0ZnNgYotDqMG27mIHGn.iQvDSOm9hmOoVNpxpzEJLrSvCnflPPi',
  },
  { password: 'short', pepper: HOMELAND_PEPPER, bcrypt: '$2a$04$8FqJSUL.6CfZ/Se1mfUd4usf4xBXZp60eQ.XMDSifIuTFA0go5Fl6' },
  {
    password: 'pässwörd 日本語',
    pepper: HOMELAND_PEPPER,
    bcrypt: '$2a$04$lVa850NEAUN3iD4Dz0YYc.Cm/.svxUSIW8.Dw64saFrTdBjMJHLXW',
  },
  // 71 bytes, then 'é' (C3 A9): the 72-byte cut falls inside it.
  {
    password: 'a'.repeat(71) + 'étail',
    pepper: HOMELAND_PEPPER,
    bcrypt: '$2a$04$s.7uSJkG2pCezXCgoyXu8OjPziAcDUrSeioonCzkjD6Oe/0tUOvIe',
  },
  { password: 'x'.repeat(80), pepper: 'pepper one', bcrypt: '$2a$04$Snk1TVT95KpIlmKZs7HBzuOAd7iuIuqQ1ndvNI.PC6Ertx6TK6Z3G' },
];

describe('devise password hashes (contract §20)', () => {
  it('verifies the right password, not a wrong one nor the right one with another pepper', async () => {
    const stored = await deviseHash('correct horse battery', HOMELAND_PEPPER);
    expect(stored.startsWith(`${DEVISE_BCRYPT_SCHEME}YzdkNGVk`)).to.equal(true);
    expect(stored).to.match(/\$2a\$04\$[./A-Za-z0-9]{53}$/);
    expect(await hasher.verify(stored, 'correct horse battery')).to.equal(true);
    expect(await hasher.verify(stored, 'correct horse batterY')).to.equal(false);
    expect(await hasher.verify(stored, '')).to.equal(false);
    const otherPepper = devisePasswordHash('another pepper', parseDevisePasswordHash(stored)!.bcrypt)!;
    expect(await hasher.verify(otherPepper, 'correct horse battery')).to.equal(false);
  });

  it('checks hashes that Ruby’s bcrypt made the way devise does', async () => {
    for (const { password, pepper, bcrypt } of RUBY_VECTORS) {
      const stored = devisePasswordHash(pepper, bcrypt)!;
      expect(await hasher.verify(stored, password), password).to.equal(true);
      expect(await hasher.verify(stored, `X${password.slice(1)}`), password).to.equal(false);
    }
  });

  it('agrees with crypt_blowfish’s own $2a$ known answers (the implementation the bcrypt gem ships)', async () => {
    // Openwall's crypt_blowfish wrapper.c tests, as php-src's ext/standard/tests/crypt/crypt_blowfish.phpt lists them.
    const vectors: [string, string][] = [
      ['$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW', 'U*U'],
      ['$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK', 'U*U*'],
      ['$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a', 'U*U*U'],
      [
        '$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui',
        '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored',
      ],
    ];
    for (const [bcrypt, password] of vectors) {
      // No pepper: the password alone is what bcrypt saw.
      const stored = devisePasswordHash('', bcrypt)!;
      expect(await hasher.verify(stored, password), password).to.equal(true);
      expect(await hasher.verify(stored, `X${password.slice(1)}`), password).to.equal(false);
    }
    // Bytes of 0x80 and above (single bytes, not UTF-8: the library directly), $2a$ as crypt_blowfish computes it.
    expect(await bcryptVerify(Buffer.from([0xa3]), '$2a$05$/OK.fbVrR/bpIqNJ5ianF.Sa7shbm4.OzKpvFnX1pQLmQW96oUlCq')).to.equal(
      true,
    );
    expect(
      await bcryptVerify(Buffer.from('\xff\xa3345', 'latin1'), '$2a$05$/OK.fbVrR/bpIqNJ5ianF.nRht2l/HRhr6zmCp9vYUvvsqynflf9e'),
    ).to.equal(true);
  });

  it('leaves no room for the pepper after a password of 72 bytes or more', async () => {
    const password = 'p'.repeat(72);
    expect(deviseBcryptInput(password, HOMELAND_PEPPER)).to.deep.equal(Buffer.from(password));
    const stored = await deviseHash(password, 'one pepper');
    const bcrypt = parseDevisePasswordHash(stored)!.bcrypt;
    for (const pepper of ['one pepper', 'another', '', HOMELAND_PEPPER]) {
      expect(await hasher.verify(devisePasswordHash(pepper, bcrypt)!, password), pepper).to.equal(true);
      // What comes after the 72nd byte was never seen either.
      expect(await hasher.verify(devisePasswordHash(pepper, bcrypt)!, `${password}more`), pepper).to.equal(true);
    }
    expect(await hasher.verify(stored, 'p'.repeat(71))).to.equal(false);
  });

  it('cuts by bytes, inside a multi-byte character', async () => {
    const password = 'a'.repeat(71) + 'é';
    const input = deviseBcryptInput(password, HOMELAND_PEPPER);
    expect(input).to.have.length(72);
    expect(input[71]).to.equal(0xc3); // 'é' is C3 A9: only its first byte was seen.
    // Made from the bytes themselves, not through deviseBcryptInput.
    const made = await bcryptHash(Buffer.concat([Buffer.from('a'.repeat(71)), Buffer.from([0xc3])]), 4);
    const stored = devisePasswordHash(HOMELAND_PEPPER, made.replace('$2b$', '$2a$'))!;
    expect(await hasher.verify(stored, password)).to.equal(true);
    // 'è' (C3 A8) starts with the same byte: devise accepted it too.
    expect(await hasher.verify(stored, 'a'.repeat(71) + 'è')).to.equal(true);
    expect(await hasher.verify(stored, 'a'.repeat(71) + 'ā')).to.equal(false); // C4 81
    expect(await hasher.verify(stored, 'a'.repeat(71))).to.equal(false);
  });

  it('takes the pepper’s bytes only up to 72 in all', () => {
    expect(deviseBcryptInput('secret', 'pepper').toString()).to.equal('secretpepper');
    expect(deviseBcryptInput('secret', HOMELAND_PEPPER).toString()).to.equal(`secret${HOMELAND_PEPPER.slice(0, 66)}`);
    expect(deviseBcryptInput('日本', HOMELAND_PEPPER)).to.have.length(72);
    // A NUL ended the string where the bcrypt gem handed it to C (older gems; newer ones refuse it).
    expect(deviseBcryptInput('abc\u0000def', 'pepper').toString()).to.equal('abc');
  });

  it('makes a stored hash of bcrypt hashes only', () => {
    const bcrypt = RUBY_VECTORS[0]!.bcrypt;
    expect(devisePasswordHash('p', bcrypt)).to.equal(devisePasswordPrefix('p') + bcrypt);
    expect(devisePasswordHash('p', bcrypt.replace('$2a$', '$2y$'))).to.not.equal(null);
    expect(devisePasswordHash('p', bcrypt.replace('$2a$', '$2b$'))).to.not.equal(null);
    for (const other of [
      '',
      '$argon2id$v=19$m=19456,t=2,p=1$UKoH/yDltfRNS5OiDzbtXg$b+E1ZVsu3IQcb9H4iYB3ezSVm/bP9JszncXyjgWQmOw',
      bcrypt.replace('$2a$', '$2x$'),
      bcrypt.replace('$2a$10$', '$2a$1$'),
      bcrypt.slice(0, -1),
      `${bcrypt}x`,
      ` ${bcrypt}`,
      `${bcrypt}\n`,
      'plain password',
    ]) {
      expect(devisePasswordHash('p', other), other).to.equal(null);
    }
  });

  it('reads back a pepper holding `$` and characters outside ASCII', () => {
    const bcrypt = RUBY_VECTORS[1]!.bcrypt;
    for (const pepper of ['a$b$2a$10$', 'pépé 日本 😀', '', HOMELAND_PEPPER]) {
      const stored = devisePasswordHash(pepper, bcrypt)!;
      expect(stored.startsWith(devisePasswordPrefix(pepper))).to.equal(true);
      expect(stored.slice(DEVISE_BCRYPT_SCHEME.length)).to.not.match(/=/);
      expect(parseDevisePasswordHash(stored)).to.deep.equal({ pepper, bcrypt });
    }
  });

  it('parses nothing else', () => {
    const bcrypt = RUBY_VECTORS[1]!.bcrypt;
    for (const stored of [
      bcrypt,
      `${DEVISE_BCRYPT_SCHEME}cGVwcGVy`,
      `${DEVISE_BCRYPT_SCHEME}cGVwcGVy$argon2id$v=19`,
      `${DEVISE_BCRYPT_SCHEME}cGVwcGVy${bcrypt.slice(0, -2)}`,
      `${DEVISE_BCRYPT_SCHEME}cGVwcA==${bcrypt}`, // padded
      `${DEVISE_BCRYPT_SCHEME}cGVw+A${bcrypt}`, // base64, not base64url
      `${DEVISE_BCRYPT_SCHEME}_w${bcrypt}`, // the byte FF: not UTF-8
      `$devise-bcrypt${bcrypt}`,
    ]) {
      expect(parseDevisePasswordHash(stored), stored).to.equal(null);
    }
  });

  it('verifies a hash of an unknown kind as false, without throwing', async () => {
    for (const stored of ['', 'garbage', RUBY_VECTORS[0]!.bcrypt, '$argon2id$nonsense', `${DEVISE_BCRYPT_SCHEME}$2a$`]) {
      expect(await hasher.verify(stored, 'correct horse battery'), stored).to.equal(false);
    }
  });

  it('asks to rehash anything but our argon2id', async () => {
    const ours = await hasher.hash('correct horse battery');
    expect(ours.startsWith('$argon2id$')).to.equal(true);
    expect(await hasher.verify(ours, 'correct horse battery')).to.equal(true);
    expect(hasher.needsRehash(ours)).to.equal(false);
    expect(hasher.needsRehash(await deviseHash('correct horse battery', HOMELAND_PEPPER))).to.equal(true);
    expect(hasher.needsRehash('$argon2i$v=19$m=4096,t=3,p=1$c2FsdA$aGFzaA')).to.equal(true);
    expect(hasher.needsRehash('')).to.equal(true);
  });
});

describe('PasswordLogin with an imported devise hash', () => {
  const allowAll: CredentialThrottle = {
    ensureAllowed: async () => undefined,
    recordFailure: async () => undefined,
    recordSuccess: async () => undefined,
  };
  const nobodySeen: Presence = { seen: async () => undefined };

  /** One user, loaded as a fresh copy each time (as a repository does), and a record of what was saved. */
  function oneUser(passwordHash: string, state: 'active' | 'unverified' = 'active') {
    const row = { passwordHash, updatedAt: fixedClock.now() };
    const load = () => {
      const user = User.register(
        { login: 'alice', email: 'alice@example.com', passwordHash: row.passwordHash, role: 'member', state },
        fixedClock.now(),
      );
      user.id = 7;
      return user;
    };
    const loaded: User[] = [];
    const users = {
      findByLoginOrEmail: async () => load(),
      findById: async () => {
        const user = load();
        loaded.push(user);
        return user;
      },
    } as unknown as UserRepository;
    const uow = {
      run: async <T>(work: () => Promise<T>) => {
        const result = await immediateUnitOfWork.run(work);
        for (const user of loaded.splice(0)) row.passwordHash = user.passwordHash!;
        return result;
      },
    };
    const noSecondFactor = { isOn: async () => false } as unknown as CheckSecondFactor;
    return { row, login: new PasswordLogin(users, hasher, allowAll, nobodySeen, uow, fixedClock, noSecondFactor) };
  }

  const input = (password: string) => ({ username: 'alice', password, address: '203.0.113.1' });

  it('replaces the hash with argon2id after the right password, and not after a wrong one', async () => {
    const stored = await deviseHash('correct horse battery', HOMELAND_PEPPER);
    const { row, login } = oneUser(stored);
    expect(await login.execute(input('wrong password'))).to.equal(null);
    expect(row.passwordHash).to.equal(stored);
    expect(await login.execute(input('correct horse battery'))).to.deep.include({ id: 7, login: 'alice' });
    expect(row.passwordHash.startsWith('$argon2id$')).to.equal(true);
    const rehashed = row.passwordHash;
    expect(await login.execute(input('correct horse battery'))).to.deep.include({ id: 7 });
    expect(row.passwordHash, 'ours is kept').to.equal(rehashed);
  });

  it('replaces it for an account that may not sign in yet, which is then refused', async () => {
    const { row, login } = oneUser(await deviseHash('correct horse battery', HOMELAND_PEPPER), 'unverified');
    let refused: unknown = null;
    await login.execute(input('correct horse battery')).catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(AccountNotActive);
    expect(row.passwordHash.startsWith('$argon2id$')).to.equal(true);
  });
});
