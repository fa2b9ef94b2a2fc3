import { z } from 'zod';
import { moderationActed } from '../../domain/events.js';
import { NotFound } from '../../domain/shared/errors.js';
import { type Actor, requireAdmin } from '../actor.js';
import type { DomainEvents } from '../events.js';
import { optional, readAll, wholeNumber } from '../inputs.js';
import type { Clock, SecretGenerator, UnitOfWork } from '../ports.js';

/** An invite as the store keeps it: its code only as a digest. */
export interface Invite {
  id: number;
  maxUses: number;
  uses: number;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdById: number;
  createdAt: Date;
}

/**
 * Invites (REGISTRATION=invite, contract §16b): a code good for a number of sign-ups until it expires or is
 * revoked. The code is a random secret in the link; the store keeps its digest.
 */
export interface InviteStore {
  add(invite: { digest: string; maxUses: number; expiresAt: Date | null; createdById: number; createdAt: Date }): Promise<number>;
  /** A live invite (not revoked, not expired, uses left) by its code's digest. */
  live(digest: string, now: Date): Promise<Invite | null>;
  /** Counts one use if one is left; false when there is none (another sign-up took the last). */
  use(id: number, now: Date): Promise<boolean>;
  list(): Promise<Invite[]>;
  /** Returns whether a live invite was revoked. */
  revoke(id: number, now: Date): Promise<boolean>;
}
export const InviteStore = Symbol.for('InviteStore');

/** The invite side of a sign-up. */
export class Invites {
  constructor(
    private readonly store: InviteStore,
    private readonly secrets: SecretGenerator,
  ) {}

  find(code: string, now: Date): Promise<Invite | null> {
    if (code === '' || code.length > 200) return Promise.resolve(null);
    return this.store.live(this.secrets.digest(code), now);
  }

  use(invite: Invite, now: Date): Promise<boolean> {
    return this.store.use(invite.id, now);
  }
}

export const CreateInviteParams = z.object({
  uses: optional(wholeNumber(1, 100_000), 1),
  expiresInDays: optional(wholeNumber(1, 3650), 30),
});

/** forumctl invites create: an administrator's invite; returns its id and code (shown once, kept as a digest). */
export class CreateInvite {
  constructor(
    private readonly store: InviteStore,
    private readonly secrets: SecretGenerator,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(
    actor: Actor,
    raw: unknown,
    reason: string | null = null,
  ): Promise<{ id: number; code: string; expiresAt: Date }> {
    const admin = requireAdmin(actor);
    const input = readAll(CreateInviteParams, raw);
    const code = this.secrets.generate();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + input.expiresInDays * 86_400_000);
    return this.uow.run(async () => {
      const id = await this.store.add({
        digest: this.secrets.digest(code),
        maxUses: input.uses,
        expiresAt,
        createdById: admin.id,
        createdAt: now,
      });
      const changes = { max_uses: [null, input.uses] as [null, number], expires_at: [null, expiresAt] as [null, Date] };
      await this.events.record(moderationActed('invite.create', admin.id, { type: 'Invite', id }, changes, reason));
      return { id, code, expiresAt };
    });
  }
}

export class ListInvites {
  constructor(private readonly store: InviteStore) {}

  execute(actor: Actor): Promise<Invite[]> {
    requireAdmin(actor);
    return this.store.list();
  }
}

export class RevokeInvite {
  constructor(
    private readonly store: InviteStore,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, id: number, reason: string | null = null): Promise<void> {
    const admin = requireAdmin(actor);
    const now = this.clock.now();
    await this.uow.run(async () => {
      if (!(await this.store.revoke(id, now))) throw new NotFound('invite');
      await this.events.record(
        moderationActed('invite.revoke', admin.id, { type: 'Invite', id }, { revoked_at: [null, now] }, reason),
      );
    });
  }
}
