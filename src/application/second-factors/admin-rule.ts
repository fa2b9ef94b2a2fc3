import type { ActingUser } from '../actor.js';
import type { SecondFactorStore } from './ports.js';

/** REQUIRE_2FA: who must have a second factor before they may act as what they are. */
export type SecondFactorRequirement = 'none' | 'admins';

/**
 * REQUIRE_2FA=admins (contract §25): an administrator without a second factor acts as a member until they set one
 * up, and administration (requireAdmin) says why it refuses. Applied where a caller becomes an actor (a token, a
 * browser session), so that every act of theirs, through any use case, sees the same role. Costs a lookup only
 * for administrators, only when the rule is on.
 */
export class AdminSecondFactorRule {
  constructor(
    private readonly store: SecondFactorStore,
    private readonly requirement: SecondFactorRequirement,
  ) {}

  /** Whether it may hold someone back: then who a caller acts as is known only once it has looked. */
  get holdsBack(): boolean {
    return this.requirement === 'admins';
  }

  async apply<U extends ActingUser | null>(user: U): Promise<U | ActingUser> {
    if (this.requirement !== 'admins' || user === null || user.role !== 'admin') return user;
    if (await this.store.isOn(user.id)) return user;
    return { id: user.id, login: user.login, role: 'member', adminOnHold: true };
  }
}
