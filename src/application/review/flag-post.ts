import { z } from 'zod';
import { FLAG_REASONS } from '../../domain/events.js';
import { flagsHide } from '../../domain/review/review-item.js';
import { InvalidInput, RuleViolated } from '../../domain/shared/errors.js';
import { type Actor, requireUser } from '../actor.js';
import type { DomainEvents } from '../events.js';
import { Text, maybe, oneOf, readAll } from '../inputs.js';
import type { Clock, UnitOfWork } from '../ports.js';
import type { PostTarget, Posts } from '../posts/posts.js';
import type { ReviewStore } from './ports.js';

/** Contract §18's threshold: how many people's flags hide a post (FLAG_HIDE_THRESHOLD). */
export interface FlagSettings {
  hideThreshold: number;
}

export const MAX_FLAG_MESSAGE = 500;

/** The parameters of a flag, as they are read (and documented). */
export const FlagParams = z.object({
  reason: oneOf(FLAG_REASONS),
  message: maybe(
    Text.pipe(
      z
        .string()
        .trim()
        .max(MAX_FLAG_MESSAGE, { error: `must be at most ${MAX_FLAG_MESSAGE} characters` }),
    ),
  ).meta({ description: 'required for the reason `other`', maxLength: MAX_FLAG_MESSAGE }),
});

/**
 * A person flags a post (contract §18): once per post (again is a no-op), never their own. The post is hidden at
 * once when enough people flagged it, or an administrator did; its review item gathers the flags either way.
 */
export class FlagPost {
  constructor(
    private readonly posts: Posts,
    private readonly store: ReviewStore,
    private readonly events: DomainEvents,
    private readonly settings: FlagSettings,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, target: PostTarget, raw: { reason?: unknown; message?: unknown }): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      const post = await this.posts.load(target, user);
      const ref = this.posts.ref(post);
      const { reason, message } = readAll(FlagParams, raw);
      if (reason === 'other' && !message) throw new InvalidInput('message', 'message is missing (required for the reason other)');
      if (post.userId === user.id) throw new RuleViolated('Validation failed: you cannot flag your own post');
      if (post.isHeld()) throw new RuleViolated('Validation failed: the post is waiting for approval; approve or reject it');
      const now = this.clock.now();
      const added = await this.store.addFlag(ref, { userId: user.id, reason, message: message || null, at: now });
      if (!added) return;
      const flaggers = await this.store.flaggers(added.itemId);
      if (flagsHide(flaggers, user.role === 'admin', this.settings.hideThreshold) && post.hide()) {
        await this.posts.save(post);
        await this.events.record({ type: 'post.hidden', ...ref });
      }
      await this.events.record({ type: 'post.flagged', itemId: added.itemId, flaggerId: user.id, reason, ...ref });
    });
  }
}
