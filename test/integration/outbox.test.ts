import { expect } from 'chai';
import { makeNode, makeReply, makeTopic, makeUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { buildContainer } from '../../src/container.js';
import { DomainEvents } from '../../src/application/events.js';
import { UnitOfWork } from '../../src/application/ports.js';

/** The outbox's promise (../shared/design/events.md): an event exists exactly when its change committed. */
describe('the event outbox', () => {
  const count = async () => (await testEnv().sql<{ n: number }>('select count(*)::int as n from events'))[0]!.n;

  it('keeps nothing of a change that rolled back, and writes a transaction’s events together at its commit', async () => {
    const env = testEnv();
    const container = buildContainer(env.persistence, env.config);
    const uow = container.get<UnitOfWork>(UnitOfWork);
    const events = container.get<DomainEvents>(DomainEvents);
    const before = await count();

    const failed = await env
      .scope(() =>
        uow.run(async () => {
          await events.record({ type: 'notification.read', userIds: [1] });
          await events.record({ type: 'notification.deleted', userIds: [1] });
          throw new Error('the change fails after recording');
        }),
      )
      .then(
        () => null,
        (error: Error) => error.message,
      );
    expect(failed).to.equal('the change fails after recording');
    expect(await count()).to.equal(before);

    let seenInside = -1;
    await env.scope(() =>
      uow.run(async () => {
        await events.record({ type: 'notification.read', userIds: [2] });
        await events.record({ type: 'notification.deleted', userIds: [2] });
        seenInside = await count();
      }),
    );
    expect(seenInside).to.equal(before);
    const rows = await env.sql<{ type: string; payload: unknown }>('select type, payload from events order by id desc limit 2');
    expect(rows.reverse()).to.deep.equal([
      { type: 'notification.read', payload: { userIds: [2] } },
      { type: 'notification.deleted', payload: { userIds: [2] } },
    ]);
  });

  it('records what the use cases change, without bodies: a created topic, its notifications', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const node = await makeNode('General');
    // The log is not emptied between tests (the feed of this process follows it): read what comes after this.
    const [{ last }] = await env.sql<{ last: number }>('select coalesce(max(id), 0)::int as last from events');
    const topic = await env.scope(() =>
      env.useCases.createTopic.execute(alice, { title: 'Hello', nodeId: node, body: 'A body @bob' }),
    );
    const rows = await env.sql<{ type: string; payload: Record<string, unknown> }>(
      "select type, payload from events where id > $1 and type in ('topic.created', 'notification.created') order by id",
      [last],
    );
    const created = rows.find((row) => row.type === 'topic.created')!;
    expect(created.payload).to.include({ topicId: topic });
    expect(created.payload).to.not.have.property('bodyHtml');
    expect(created.payload).to.not.have.property('title');
    const notified = rows.find((row) => row.type === 'notification.created')!;
    const [mention] = await env.sql<{ id: number }>('select id from notifications where user_id = $1', [bob.id]);
    expect(notified.payload).to.deep.equal({ notifications: [{ id: mention!.id, userId: bob.id }] });
  });

  it('records a reply, its notifications by the ids they were written with, and its search document', async () => {
    const env = testEnv();
    const [alice, bob, carol, dave] = [
      await makeUser('alice'),
      await makeUser('bob'),
      await makeUser('carol'),
      await makeUser('dave'),
    ];
    const topic = await makeTopic(alice, await makeNode('General'));
    await env.scope(() => env.useCases.followTopic.execute(carol, topic, true));
    const [{ last }] = await env.sql<{ last: number }>('select coalesce(max(id), 0)::int as last from events');
    // The author and a follower are told of the reply, bob of his mention; dave is neither.
    const { reply } = await env.scope(() =>
      env.useCases.createReply.execute(dave, { topicId: topic, body: 'Thanks @bob, searchable words' }),
    );
    const rows = await env.sql<{ type: string; payload: Record<string, unknown> }>(
      'select type, payload from events where id > $1 order by id',
      [last],
    );
    // The notifications' event is written with the ids their statement drew, after the reply's, in the one statement.
    expect(rows.map((row) => row.type)).to.deep.equal(['reply.created', 'notification.created']);
    const written = await env.sql<{ id: number; userId: number }>(
      'select id, user_id as "userId" from notifications where reply_id = $1 order by id',
      [reply.id],
    );
    expect(written.map((row) => row.userId)).to.have.members([alice.id, carol.id, bob.id]);
    expect(rows[1]!.payload).to.deep.equal({ notifications: written });
    expect(rows[0]!.payload).to.include({ replyId: reply.id, topicId: topic });
    const [document] = await env.sql<{ words: string }>(
      'select vector::text as words from search_documents where reply_id = $1',
      [reply.id],
    );
    expect(document!.words).to.contain("'searchabl'");
  });

  it('records the acts webhooks and the audit log follow: users created and re-roled, topics moved, banned, deleted, replies deleted', async () => {
    const env = testEnv();
    const root = await makeUser('root', 'admin');
    const alice = await makeUser('alice');
    const general = await makeNode('General');
    const other = await makeNode('Other');
    const [{ last }] = await env.sql<{ last: number }>('select coalesce(max(id), 0)::int as last from events');
    const { useCases } = env;
    const act = <T>(work: () => Promise<T>) => env.scope(work);

    const carol = await act(() =>
      useCases.createUser.execute({ login: 'carol', email: 'carol@example.com', password: 'a long password' }),
    );
    await act(() => useCases.changeRole.execute(root, 'carol', 'admin'));
    await act(() => useCases.changeRole.execute(root, 'carol', 'admin')); // no change: no event
    const moved = await makeTopic(alice, general, 'Moved', 'a topic to move');
    await act(() => useCases.moveTopic.execute(root, moved, other));
    const banned = await makeTopic(alice, general, 'Banned', 'a topic to ban');
    await act(() => useCases.topicAction.execute(root, banned, 'ban'));
    const reply = await makeReply(alice, moved, 'a reply to delete');
    const [{ created_at: replyCreatedAt }] = (await env.sql<{ created_at: Date }>(
      'select created_at from replies where id = $1',
      [reply],
    )) as [{ created_at: Date }];
    await act(() => useCases.deleteReply.execute(alice, reply));
    await act(() => useCases.deleteTopic.execute(root, moved));

    const rows = await env.sql<{ type: string; payload: Record<string, unknown> }>(
      `select type, payload from events
       where id > $1 and type in ('user.created', 'user.role_changed', 'topic.moved', 'topic.banned', 'reply.deleted', 'topic.deleted')
       order by id`,
      [last],
    );
    const [{ id: noPoint }] = await env.sql<{ id: number }>("select id from nodes where name = 'NoPoint'");
    expect(rows).to.deep.equal([
      { type: 'user.created', payload: { userId: carol } },
      { type: 'user.role_changed', payload: { userId: carol, from: 'member', to: 'admin', actorId: root.id } },
      // The owner and whether an administrator moved it: what the notification producer needs (NodeChanged).
      {
        type: 'topic.moved',
        payload: { topicId: moved, ownerId: alice.id, fromNodeId: general, toNodeId: other, actorId: root.id, byAdmin: true },
      },
      {
        type: 'topic.moved',
        payload: { topicId: banned, ownerId: alice.id, fromNodeId: general, toNodeId: noPoint, actorId: root.id, byAdmin: true },
      },
      { type: 'topic.banned', payload: { topicId: banned, actorId: root.id } },
      // Whose it was (and when and where), for the counters that follow a deletion.
      {
        type: 'reply.deleted',
        payload: { replyId: reply, topicId: moved, userId: alice.id, createdAt: replyCreatedAt.toISOString(), actorId: alice.id },
      },
      { type: 'topic.deleted', payload: { topicId: moved, ownerId: alice.id, nodeId: other, actorId: root.id } },
    ]);
  });
});

describe('the events log has one writer', () => {
  it('has no trigger function that writes events or decides who is mailed: the code records, the database stores', async () => {
    const functions = await testEnv().sql<{ name: string }>(
      `select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = current_schema() and p.prolang = (select oid from pg_language where lanname = 'plpgsql')
         and exists (select 1 from pg_trigger t where t.tgfoid = p.oid)
         and (p.prosrc ~* 'insert\\s+into\\s+events' or p.prosrc ~* 'notification_mail_queue')`,
    );
    expect(functions.map((row) => row.name)).to.deep.equal([]);
  });
});
