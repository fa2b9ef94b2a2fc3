import { expect } from 'chai';
import { RuleViolated } from '../../src/domain/shared/errors.js';
import { type AccountState, User } from '../../src/domain/users/user.js';
import type { Role } from '../../src/domain/users/role.js';

const DAY = 24 * 3_600_000;
const now = new Date('2026-11-21T08:00:00.000Z');
const later = new Date('2026-11-21T09:00:00.000Z');
const inDays = (days: number) => new Date(now.getTime() + days * DAY);

function user(changes: { login?: string; role?: Role; state?: AccountState } = {}): User {
  const user = User.register(
    {
      login: changes.login ?? 'carol',
      email: 'carol@example.com',
      passwordHash: null,
      role: changes.role ?? 'member',
      state: changes.state ?? 'active',
    },
    now,
  );
  user.id = 5;
  return user;
}

describe('User#silence and User#suspend', () => {
  const acts = {
    silence: { act: (u: User, until: Date, at: Date) => u.silence(until, at), field: 'silencedUntil' as const },
    suspend: { act: (u: User, until: Date, at: Date) => u.suspend(until, at), field: 'suspendedUntil' as const },
  };

  for (const [name, { act, field }] of Object.entries(acts)) {
    describe(name, () => {
      it('sets the end and returns the previous one (none at first)', () => {
        const member = user();
        expect(act(member, inDays(3), later)).to.equal(null);
        expect(member[field]).to.deep.equal(inDays(3));
        expect(member.updatedAt).to.equal(later);
        expect(act(member, inDays(7), later)).to.deep.equal(inDays(3));
        expect(member[field]).to.deep.equal(inDays(7));
      });

      it('refuses an administrator, leaving the account alone', () => {
        const administrator = user({ role: 'admin' });
        expect(() => act(administrator, inDays(3), later)).to.throw(RuleViolated, /administrator/);
        expect(administrator[field]).to.equal(null);
        expect(administrator.updatedAt).to.equal(now);
      });

      it('refuses the system user, leaving it alone', () => {
        const system = user({ login: 'system' });
        expect(() => act(system, inDays(3), later)).to.throw(RuleViolated, /system/);
        expect(system[field]).to.equal(null);
      });
    });
  }
});

describe('User#unsilence and User#unsuspend', () => {
  it('ends a silence early and returns the end it had', () => {
    const member = user();
    member.silence(inDays(3), now);
    expect(member.unsilence(later)).to.deep.equal(inDays(3));
    expect(member.silencedUntil).to.equal(null);
    expect(member.updatedAt).to.equal(later);
  });

  it('ends a suspension early and returns the end it had', () => {
    const member = user();
    member.suspend(inDays(3), now);
    expect(member.unsuspend(later)).to.deep.equal(inDays(3));
    expect(member.suspendedUntil).to.equal(null);
  });

  it('returns null for an account that was not silenced or suspended', () => {
    const member = user();
    expect(member.unsilence(later)).to.equal(null);
    expect(member.unsuspend(later)).to.equal(null);
    expect(member.updatedAt).to.equal(now);
  });

  it('returns null for a silence or suspension that had ended by itself', () => {
    const member = user();
    member.silence(inDays(-1), now);
    member.suspend(inDays(-1), now);
    expect(member.unsilence(later)).to.equal(null);
    expect(member.unsuspend(later)).to.equal(null);
  });
});

describe('User#signInRefusal', () => {
  it('refuses no active account that is not suspended', () => {
    expect(user().signInRefusal(now)).to.equal(null);
  });

  it('refuses an unverified or pending account, saying which', () => {
    expect(user({ state: 'unverified' }).signInRefusal(now)).to.deep.equal({ reason: 'unverified' });
    expect(user({ state: 'pending' }).signInRefusal(now)).to.deep.equal({ reason: 'pending' });
  });

  it('refuses an account suspended until a future date, saying until when', () => {
    const member = user();
    member.suspend(inDays(2), now);
    expect(member.signInRefusal(later)).to.deep.equal({ reason: 'suspended', until: inDays(2) });
  });

  it('lets an account sign in once its suspension is over', () => {
    const member = user();
    member.suspend(inDays(2), now);
    expect(member.signInRefusal(inDays(2))).to.equal(null);
    expect(member.signInRefusal(inDays(3))).to.equal(null);
  });

  it('does not refuse a silenced account: silence does not stop sign-in', () => {
    const member = user();
    member.silence(inDays(2), now);
    expect(member.signInRefusal(later)).to.equal(null);
  });
});
