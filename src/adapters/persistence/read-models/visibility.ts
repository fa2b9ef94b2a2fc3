/**
 * Who sees which post, in SQL: the one translation of the domain's rule (domain/shared/post.ts, `seesPost`) that every
 * read inherits, lists, shows, replies, search, notifications and their streams alike. A post that is held or hidden
 * (contract §18) is shown to its author and to administrators as before; to anyone else a topic is not there and a
 * reply keeps its floor as a deleted one. What is sent to everyone (mail, digests, webhooks, the anonymous front page)
 * shows public posts only: `isPublic`.
 */

import type { Viewer } from '../../../domain/users/role.js';

/** The reader of a statement, as SQL: their user id (null when signed out) and whether they are an administrator. */
export interface Reader {
  id: string;
  admin: string;
}

/** Someone signed out (and what is sent to everyone): public posts only. */
export const SIGNED_OUT: Reader = { id: 'null::int', admin: 'false' };

/** The caller found by VIEWER_CTE, joined as `v` (callers.ts); no row is someone signed out. */
export const VIEWER: Reader = { id: 'v.id', admin: "coalesce(v.role = 'admin', false)" };

/** The caller found by VIEWER_CTE, where its row cannot be joined (inside another CTE). */
export const VIEWER_CTE_READER: Reader = {
  id: '(select id from viewer)',
  admin: "exists(select 1 from viewer where role = 'admin')",
};

/**
 * A reader the code knows (a Viewer, or null), whose id (or null) the statement binds as `id` (a `$n`, always read):
 * whether they are an administrator is written into the text (a statement is prepared per text: two texts at most).
 */
export const readerAs = (viewer: Viewer | null, id: string): Reader => ({
  id,
  admin: viewer?.role === 'admin' ? 'true' : 'false',
});

/** A user named by an id in SQL (a `$n` parameter, a column): their role is looked up in the statement. */
export const readerOf = (id: string): Reader => ({
  id,
  admin: `exists(select 1 from users admins where admins.id = ${id} and admins.role = 'admin')`,
});

/** The post `alias` (topics or replies) is public: shown to everyone. */
export const isPublic = (alias: string) => `${alias}.visibility = 'public'`;

/** The post `alias` (topics or replies) is shown to `reader`: public, or theirs, or the reader is an administrator. Never null. */
export const shownTo = (alias: string, reader: Reader) =>
  reader === SIGNED_OUT
    ? isPublic(alias)
    : `(${isPublic(alias)} or coalesce(${alias}.user_id = ${reader.id}, false) or ${reader.admin})`;

/**
 * The replies that count (the stored counters) and are indexed (search): written by hand (not a system event), not
 * deleted, and published (a held reply counts once it is approved). A hidden reply still counts: it was published,
 * and only review takes it away.
 */
export const publishedReply = (alias: string) =>
  `${alias}.action is null and ${alias}.deleted_at is null and ${alias}.visibility <> 'held'`;

/** The topics that count and are indexed: not deleted, and published. */
export const publishedTopic = (alias: string) => `${alias}.deleted_at is null and ${alias}.visibility <> 'held'`;
