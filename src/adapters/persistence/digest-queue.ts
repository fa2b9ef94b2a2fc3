import type { DigestPeriod, DigestQueue } from '../../application/mail/digests.js';
import { queueMail } from './mail-task.js';
import type { Sql } from './sql.js';
import { READERS } from '../../domain/visibility/visibility.js';
import { SIGNED_OUT, topicCondition } from './read-models/visibility.js';

/**
 * Digest jobs, queued and marked in one statement (contract §17): the users due are locked (`skip locked`: two
 * runs at once, a cron's and `forumctl mail digest`'s, split the users rather than wait or send twice), marked
 * `digest_sent_at`, and each given a `mail_delivery` job (a digest's `since` in it), all or nothing.
 *
 * `periods` keeps only a period in which some topic was started that a digest may carry (READERS.digest): on a
 * quiet forum nobody is marked, and the digest due is considered again at the next run rather than a period
 * later. It is evaluated once per period, not per user. `last_active_at` bounds the topics scanned, through the
 * activity index (a topic's activity starts when it is made). Only accounts in use receive one (an account that
 * left is `left`); the `system` user's placeholder address (`.invalid`, RFC 2606) receives nothing either.
 */
const STATEMENT = `
  with periods as (
    select p.name, p.length
    from (values ('daily', make_interval(secs => $2)), ('weekly', make_interval(secs => $3))) as p(name, length)
    where exists (
      select 1 from topics t join nodes n on n.id = t.node_id
      where ${topicCondition(READERS.digest, SIGNED_OUT, { topic: 't', node: 'n' })}
        and t.last_active_at > $1::timestamptz - p.length and t.created_at > $1::timestamptz - p.length)),
  due as (
    select u.id, greatest(u.last_seen_at, u.digest_sent_at, $1::timestamptz - p.length) as since
    from users u join periods p on p.name = u.email_digest
    where u.state = 'active' and u.email not like '%.invalid'
      and u.last_seen_at <= $1::timestamptz - p.length
      and (u.digest_sent_at is null or u.digest_sent_at <= $1::timestamptz - p.length + make_interval(secs => $4))
    order by u.id
    limit $5
    for update of u skip locked),
  marked as (
    update users u set digest_sent_at = $1 from due where u.id = due.id
    returning u.id, due.since),
  jobs as (
    select json_build_object('kind', 'digest', 'userId', id, 'since', since) as payload from marked order by id),
  queued as (${queueMail('jobs')})
  select count(*)::int as queued from queued`;

export class SqlDigestQueue implements DigestQueue {
  constructor(private readonly sql: Sql) {}

  async queueDue(input: { now: Date; periods: Record<DigestPeriod, number>; slackMs: number; limit: number }): Promise<number> {
    const [row] = await this.sql.all<{ queued: number }>(STATEMENT, [
      input.now.toISOString(),
      input.periods.daily / 1000,
      input.periods.weekly / 1000,
      input.slackMs / 1000,
      input.limit,
    ]);
    return row?.queued ?? 0;
  }
}
