import type { ConversationStore } from '../../src/application/conversations/ports.js';
import { expect } from 'chai';
import type { ActingUser } from '../../src/application/actor.js';
import { CreateTopic } from '../../src/application/topics/create-topic.js';
import { TopicRelocation } from '../../src/application/topics/relocation.js';
import { NotificationProducer } from '../../src/application/notifications/producer.js';
import { DispatchInTransaction } from '../../src/application/events.js';
import { CounterKeeper } from '../../src/application/counters.js';
import { TopicAction } from '../../src/application/topics/topic-action.js';
import { UpdateTopic } from '../../src/application/topics/update-topic.js';
import { DeleteTopic } from '../../src/application/topics/delete-topic.js';
import { Forbidden, InvalidInput, NotFound, Unauthenticated } from '../../src/domain/shared/errors.js';
import {
  FakeCounterMoves,
  FakeNodes,
  FakeNotifications,
  FakeReplies,
  FakeTopics,
  FakeUsers,
  fixedClock,
  immediateUnitOfWork,
  plainMarkdown,
  postingRules,
  RecordedEvents,
} from '../support/fakes.js';
import { Posts } from '../../src/application/posts/posts.js';

const alice: ActingUser = { id: 10, login: 'alice', role: 'member' };
const bob: ActingUser = { id: 11, login: 'bob', role: 'member' };
const admin: ActingUser = { id: 1, login: 'admin', role: 'admin' };
const mallory: ActingUser = { id: 12, login: 'mallory', role: 'blocked' };

function world() {
  const topics = new FakeTopics();
  const nodes = new FakeNodes();
  const users = new FakeUsers();
  const replies = new FakeReplies();
  const notifications = new FakeNotifications();
  const recorded = new RecordedEvents();
  // Events reach the one producer of notifications, as in the service (with nobody following or blocking).
  const nobody = {
    ofTopic: async () => ({ followerIds: [], mentionedIds: [], blockedActorFor: [], unreadableFor: [] }),
    whoBlocked: async () => [],
    mayRead: async () => true,
  };
  const producer = new NotificationProducer(
    { ...nobody, ofReply: async () => ({ topicAuthorId: 0, ...(await nobody.ofTopic()) }) },
    notifications,
  );
  const counters = new CounterKeeper(new FakeCounterMoves(nodes, users));
  const events = Object.assign(new DispatchInTransaction([counters, producer, recorded]), { recorded: recorded.recorded });
  const relocation = new TopicRelocation(nodes, events);
  const rules = postingRules();
  // No conversation here (contract §24): every post is the forum's.
  const posts = new Posts(
    topics,
    nodes,
    replies,
    { place: async () => null } as unknown as ConversationStore,
    events,
    fixedClock,
  );
  return {
    events,
    topics,
    nodes,
    users,
    replies,
    notifications,
    create: new CreateTopic(topics, relocation, rules, plainMarkdown, events, immediateUnitOfWork, fixedClock),
    update: new UpdateTopic(topics, nodes, relocation, rules, plainMarkdown, events, immediateUnitOfWork, fixedClock),
    destroy: new DeleteTopic(topics, nodes, replies, posts, events, immediateUnitOfWork),
    action: new TopicAction(topics, replies, nodes, relocation, events, immediateUnitOfWork, fixedClock),
  };
}

async function rejects(promise: Promise<unknown>, type: Function): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(type);
    return error as Error;
  }
  throw new Error(`expected a ${type.name}`);
}

describe('CreateTopic', () => {
  it('checks authentication, then parameters, then the permission', async () => {
    const { create } = world();
    await rejects(create.execute(null, {}), Unauthenticated);
    const missing = await rejects(create.execute(mallory, { title: 't', body: 'b' }), InvalidInput);
    expect((missing as InvalidInput).parameter).to.equal('node_id');
    const denied = await rejects(create.execute(mallory, { title: 't', body: 'b', nodeId: 2 }), Forbidden);
    expect((denied as Forbidden).publicMessage).to.match(/permission to create topics/);
  });

  it('refuses an unknown node as not found (contract §6)', async () => {
    const { create } = world();
    await rejects(create.execute(alice, { title: 't', body: 'b', nodeId: 99 }), NotFound);
  });

  it('saves the topic with rendered body and moves the counters', async () => {
    const { create, topics, nodes, users, events } = world();
    const id = await create.execute(alice, { title: ' Hello ', body: 'here we go', nodeId: 2 });
    expect(events.recorded).to.deep.equal([
      {
        type: 'topic.created',
        userId: alice.id,
        nodeId: 2,
        mentions: [],
        topicId: id,
        title: 'Hello',
        bodyHtml: '<p>here we go</p>',
        createdAt: fixedClock.now(),
        at: fixedClock.now(),
      },
    ]);
    expect(topics.rows.get(id)).to.include({ title: 'Hello', bodyHtml: '<p>here we go</p>', userId: alice.id, nodeId: 2 });
    expect(nodes.counts.get(2)).to.equal(1);
    expect(users.counters.get(`${alice.id}:topicsCount`)).to.equal(1);
  });
});

describe('UpdateTopic', () => {
  it('checks the permission before the parameters', async () => {
    const w = world();
    const id = await w.create.execute(alice, { title: 't', body: 'b', nodeId: 2 });
    await rejects(w.update.execute(bob, { id }), Forbidden);
    await rejects(w.update.execute(alice, { id }), InvalidInput);
    await rejects(w.update.execute(alice, { id: 999 }), NotFound);
  });

  it('keeps a locked node for the owner but still updates title and body', async () => {
    const w = world();
    const id = await w.create.execute(alice, { title: 't', body: 'b', nodeId: 2 });
    w.topics.rows.get(id)!.lockNode = true;
    await w.update.execute(alice, { id, title: 'New', body: 'New body', nodeId: 3 });
    expect(w.topics.rows.get(id)).to.include({ title: 'New', body: 'New body', nodeId: 2, lockNode: true });
    expect(w.events.recorded.map((event) => event.type)).to.deep.equal(['topic.created', 'topic.updated']);
    expect(w.events.recorded[1]).to.include({ topicId: id, title: 'New', bodyHtml: '<p>New body</p>' });
  });

  it("locks the node and notifies the owner when an administrator moves someone's topic", async () => {
    const w = world();
    const id = await w.create.execute(alice, { title: 't', body: 'b', nodeId: 2 });
    await w.update.execute(admin, { id, title: 't', body: 'b', nodeId: 3 });
    expect(w.topics.rows.get(id)).to.include({ nodeId: 3, lockNode: true });
    expect(w.nodes.counts.get(2)).to.equal(0);
    expect(w.nodes.counts.get(3)).to.equal(1);
    expect(w.notifications.rows).to.deep.equal([
      { userId: alice.id, actorId: admin.id, type: 'NodeChanged', topicId: id, nodeId: 3 },
    ]);
  });
});

describe('TopicAction', () => {
  it('bans: NoPoint, locked, a ban event, the owner notified; a second ban changes nothing', async () => {
    const w = world();
    const id = await w.create.execute(alice, { title: 't', body: 'b', nodeId: 2 });
    await w.action.execute(admin, id, 'ban');
    await w.action.execute(admin, id, 'BAN');
    expect(w.topics.rows.get(id)).to.include({ nodeId: 1, lockNode: true });
    expect(w.replies.rows.map((r) => r.action)).to.deep.equal(['ban']);
    expect(w.notifications.rows.map((n) => n.type)).to.deep.equal(['NodeChanged']);
  });

  it('refuses a member the ban with a message, and excellent without one', async () => {
    const w = world();
    const id = await w.create.execute(alice, { title: 't', body: 'b', nodeId: 2 });
    const ban = await rejects(w.action.execute(alice, id, 'ban'), Forbidden);
    expect((ban as Forbidden).publicMessage).to.match(/ban/);
    const excellent = await rejects(w.action.execute(alice, id, 'excellent'), Forbidden);
    expect((excellent as Forbidden).publicMessage).to.equal(undefined);
  });

  it('lets the owner close and reopen, recording close and reopen events', async () => {
    const w = world();
    const id = await w.create.execute(alice, { title: 't', body: 'b', nodeId: 2 });
    await w.action.execute(alice, id, 'close');
    expect(w.topics.rows.get(id)!.isClosed()).to.equal(true);
    await w.action.execute(alice, id, 'open');
    expect(w.replies.rows.map((r) => r.action)).to.deep.equal(['close', 'reopen']);
  });

  it('refuses an unknown or missing type as a parameter error', async () => {
    const w = world();
    const id = await w.create.execute(alice, { title: 't', body: 'b', nodeId: 2 });
    await rejects(w.action.execute(admin, id, 'explode'), InvalidInput);
    await rejects(w.action.execute(admin, id, undefined), InvalidInput);
  });
});

describe('DeleteTopic', () => {
  it('lets the owner delete only while no one else has replied', async () => {
    const w = world();
    const id = await w.create.execute(alice, { title: 't', body: 'b', nodeId: 2 });
    await w.replies.add(Object.assign(Object.create(null), { topicId: id, userId: bob.id, action: null, deletedAt: null }));
    await rejects(w.destroy.execute(alice, id), Forbidden);
    await w.destroy.execute(admin, id);
    expect(w.topics.rows.get(id)).to.include({ deletedById: admin.id });
    await rejects(w.destroy.execute(admin, id), NotFound);
  });
});
