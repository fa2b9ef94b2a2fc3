import Router from '@koa/router';
import type { Context } from 'koa';
import type { VNode } from 'preact';
import { z } from 'zod';
import type { ActingUser } from '../../../application/actor.js';
import type { ListActiveUsers } from '../../../application/users/community.js';
import type { BlockUser, FollowUser, ShowUser } from '../../../application/users/manage-users.js';
import type { ListFollows, ListUserFavorites, ListUserReplies, ListUserTopics } from '../../../application/users/user-lists.js';
import type { Wire } from '../../presentation/wire.js';
import { wordsOf } from '../../presentation/words/index.js';
import { browserPages } from '../browser.js';
import { Csrf, type RouteDeclarer } from '../docs.js';
import { formOperation, type ForumPageUseCases, forumPages, LoginParam, pageOf, pageOperation } from '../forum-pages.js';
import { frameOf } from '../frame.js';
import { type ProfileTab, ProfilePage, UsersPage } from '../views/forum.js';
import { TOPICS_PER_PAGE } from './reading.js';

/** What the people's pages call: the API's own use cases. */
export interface PeoplePageUseCases extends ForumPageUseCases {
  listActiveUsers: ListActiveUsers;
  showUser: ShowUser;
  listUserTopics: ListUserTopics;
  listUserReplies: ListUserReplies;
  listUserFavorites: ListUserFavorites;
  listFollows: ListFollows;
  followUser: FollowUser;
  blockUser: BlockUser;
}
export const PeoplePageUseCases = Symbol.for('PeoplePageUseCases');

/**
 * The forum's people (contract §21a, §21b): the active members, a member's page at homeland's `/<login>` with its
 * tabs, and following and blocking them from it. Its router comes after every other page's: `/:login` would take any
 * one-segment path the others serve.
 */
export function peopleRoutes(
  app: PeoplePageUseCases,
  wire: Wire,
  docs: RouteDeclarer,
  options: { secureCookies: boolean },
): Router {
  const router = new Router();
  const browser = browserPages(options);
  const { readerOf, show, reading, writer } = forumPages(app, wire, browser);
  const t = (ctx: Context) => wordsOf(frameOf(ctx).locale).forum;

  docs.route(
    router,
    '',
    pageOperation('/users', 'The active members'),
    reading(async (ctx) => {
      const { actor, frame } = await readerOf(ctx);
      const users = await app.listActiveUsers.execute({ limit: 100 });
      show(ctx, 200, <UsersPage frame={frame} users={users.map((user) => wire.user(user, actor))} />);
    }),
  );

  /** Following and blocking a member from their page (the API's FollowUser and BlockUser), then back to it. */
  const MEMBER_ACTS: [string, (actor: ActingUser, login: string) => Promise<unknown>][] = [
    ['follow', (actor, login) => app.followUser.execute(actor, login, true)],
    ['unfollow', (actor, login) => app.followUser.execute(actor, login, false)],
    ['block', (actor, login) => app.blockUser.execute(actor, login, true)],
    ['unblock', (actor, login) => app.blockUser.execute(actor, login, false)],
  ];
  for (const [act, run] of MEMBER_ACTS) {
    docs.route(
      router,
      '',
      {
        ...formOperation(`/:login/${act}`, `${act[0]!.toUpperCase()}${act.slice(1)} a member`, z.object({ csrf_token: Csrf })),
        params: LoginParam,
      },
      reading(async (ctx) => {
        const login = String(ctx.params.login);
        const signedIn = await writer(ctx);
        if (!signedIn) return;
        await run(signedIn.user, login);
        browser.seeOther(ctx, `/${encodeURIComponent(login)}`);
      }),
    );
  }

  const PROFILE_TABS: ProfileTab[] = ['topics', 'replies', 'favorites', 'followers', 'following'];
  async function profile(ctx: Context, tab: ProfileTab): Promise<void> {
    const login = String(ctx.params.login);
    const page = pageOf(ctx);
    const { actor, frame } = await readerOf(ctx);
    const { user, meta } = await app.showUser.execute(actor, login);
    const shown = wire.userDetail(user, actor);
    frame.description = shown.tagline ?? t(ctx).profileOf(shown.login);
    frame.feed = `/${encodeURIComponent(shown.login)}/feed`;
    const input = { offset: (page - 1) * TOPICS_PER_PAGE, limit: TOPICS_PER_PAGE + 1 };
    // Following and blocking are for someone else (the API refuses them of oneself).
    const relation = actor && actor.id !== user.id ? { relation: meta } : {};
    const common = { frame, user: shown, tab, page, ...relation };
    let view: VNode;
    if (tab === 'topics' || tab === 'favorites') {
      const topics = await (tab === 'topics' ? app.listUserTopics : app.listUserFavorites).execute(actor, login, input);
      view = (
        <ProfilePage
          {...common}
          topics={topics.slice(0, TOPICS_PER_PAGE).map((topic) => wire.topic(topic, actor))}
          hasNext={topics.length > TOPICS_PER_PAGE}
        />
      );
    } else if (tab === 'replies') {
      const replies = await app.listUserReplies.execute(actor, login, input);
      view = (
        <ProfilePage
          {...common}
          replies={replies.slice(0, TOPICS_PER_PAGE).map((reply) => wire.replyDetail(reply, actor))}
          hasNext={replies.length > TOPICS_PER_PAGE}
        />
      );
    } else {
      const users = await app.listFollows.execute(login, tab, input);
      view = (
        <ProfilePage
          {...common}
          users={users.slice(0, TOPICS_PER_PAGE).map((each) => wire.user(each, actor))}
          hasNext={users.length > TOPICS_PER_PAGE}
        />
      );
    }
    show(ctx, 200, view);
  }
  for (const tab of PROFILE_TABS) {
    docs.route(
      router,
      '',
      pageOperation(tab === 'topics' ? '/:login' : `/:login/${tab}`, `A member’s profile: ${tab}`),
      reading((ctx) => profile(ctx, tab)),
    );
  }
  docs.route(
    router,
    '',
    pageOperation('/:login/topics', 'A member’s topics'),
    reading((ctx) => profile(ctx, 'topics')),
  );

  return router;
}
