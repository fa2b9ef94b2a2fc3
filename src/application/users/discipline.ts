import { moderationActed } from '../../domain/events.js';
import { NotFound, RuleViolated } from '../../domain/shared/errors.js';
import type { User } from '../../domain/users/user.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, type ActingUser, requireAdmin } from '../actor.js';
import type { DomainEvents } from '../events.js';
import { oneOf, read, readReason, wholeNumber } from '../inputs.js';
import type { Clock, UnitOfWork } from '../ports.js';
import type { SignOutEverywhere } from '../tokens/access-tokens.js';

export const DISCIPLINE_ACTS = ['silence', 'suspend', 'unsilence', 'unsuspend'] as const;
export type DisciplineAct = (typeof DISCIPLINE_ACTS)[number];

/** A silence or suspension lasts this many days at most (ten years). */
export const MAX_DISCIPLINE_DAYS = 3650;
export const DisciplineDays = wholeNumber(1, MAX_DISCIPLINE_DAYS);

const DisciplineAct = oneOf(DISCIPLINE_ACTS);
/** Whether the act starts something that lasts (and so needs its `days`). */
const starts = (act: DisciplineAct) => act === 'silence' || act === 'suspend';

/**
 * Silence and suspend (contract §18), each for a number of days that ends by itself: the end is stored and compared
 * with the time whenever it matters (posting, signing in), so it ends on every process and across restarts with
 * nothing to run. A suspension also ends every token and browser session at once. Each act is audited.
 */
export class DisciplineUser {
  constructor(
    private readonly users: UserRepository,
    private readonly signOut: SignOutEverywhere,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** forumctl users silence|suspend|unsilence|unsuspend. Returns when it ends (null when lifted). */
  async execute(actor: Actor, login: string, raw: { act: unknown; days?: unknown; reason?: unknown }): Promise<Date | null> {
    const admin = requireAdmin(actor);
    const act = read(DisciplineAct, raw.act, 'act');
    const days = starts(act) ? read(DisciplineDays, raw.days, 'days') : 0;
    const reason = readReason(raw.reason);
    return this.uow.run(async () => {
      const user = await this.users.findByLogin(login);
      if (!user) throw new NotFound(`user ${login}`);
      return this.apply(admin, user, act, days, reason);
    });
  }

  /** The act itself, inside the caller's unit of work (a review's `agree` silences too). */
  async apply(admin: ActingUser, user: User, act: DisciplineAct, days: number, reason: string | null): Promise<Date | null> {
    const now = this.clock.now();
    const end = new Date(now.getTime() + days * 86_400_000);
    const field = act.endsWith('silence') ? 'silenced_until' : 'suspended_until';
    let before: Date | null;
    let after: Date | null = null;
    switch (act) {
      case 'silence':
        before = user.silence(end, now);
        after = end;
        break;
      case 'suspend':
        before = user.suspend(end, now);
        after = end;
        await this.signOut.execute(user.id);
        break;
      case 'unsilence':
        before = user.unsilence(now);
        break;
      case 'unsuspend':
        before = user.unsuspend(now);
        break;
    }
    if (!starts(act) && before === null) {
      throw new RuleViolated(`Validation failed: ${user.login} is not ${act === 'unsilence' ? 'silenced' : 'suspended'}`);
    }
    const target = { type: 'User', id: user.id } as const;
    await this.events.record(moderationActed(`user.${act}`, admin.id, target, { [field]: [before, after] }, reason));
    return after;
  }
}
