import { Forbidden, RuleViolated } from '../shared/errors.js';
import { requireText } from '../shared/text.js';
import { MAX_TITLE, MAX_TOPIC_BODY } from '../topics/topic.js';
import { type ConversationFacts, takesPart } from '../visibility/visibility.js';

/**
 * A conversation (contract §24): a private exchange among 2 to 20 people, named one by one or as groups whose members
 * take part. It is stored as a topic in no node, its messages as replies; who may read it is the visibility policy's
 * `participant` (domain/visibility/visibility.ts), and these are the rules of who may be in one.
 */

/** How many may be named in a conversation, its starter included: users, and groups, each counted once. */
export const MAX_PARTICIPANTS = 20;

/** Who is named to take part, by id: users and groups. */
export interface Named {
  userIds: readonly number[];
  groupIds: readonly number[];
}

/** Someone who may be named, as the rules read them: whether they blocked the one who names them. */
export interface Recipient {
  id: number;
  blockedSender: boolean;
}

export const NOT_ENOUGH_PEOPLE = 'Validation failed: A conversation needs someone besides you';
export const TOO_MANY_PEOPLE = `Validation failed: A conversation takes at most ${MAX_PARTICIPANTS} participants`;
/** Contract §24: said without saying who, so that nobody learns who blocked them. */
export const BLOCKED_BY_RECIPIENT = 'One of the people you named does not accept messages from you.';

/**
 * Who a new conversation's starter names: refused when nobody besides the starter is in it (400), when it names more
 * than MAX_PARTICIPANTS with the starter (400), or when someone named blocked the starter (403, not saying who).
 */
export function requireParticipants(starterId: number, named: Named, recipients: readonly Recipient[]): Named {
  const userIds = [...new Set(named.userIds.filter((id) => id !== starterId))];
  const groupIds = [...new Set(named.groupIds)];
  if (userIds.length + groupIds.length === 0) throw new RuleViolated(NOT_ENOUGH_PEOPLE);
  if (userIds.length + groupIds.length + 1 > MAX_PARTICIPANTS) throw new RuleViolated(TOO_MANY_PEOPLE);
  requireNotBlocked(recipients);
  return { userIds: [starterId, ...userIds], groupIds };
}

/**
 * Who a participant adds to a conversation that names `current` already: those not in it yet, within
 * MAX_PARTICIPANTS, none of whom blocked the one adding them (403, not saying who).
 */
export function requireAdditions(current: Named, added: Named, recipients: readonly Recipient[]): Named {
  const userIds = [...new Set(added.userIds.filter((id) => !current.userIds.includes(id)))];
  const groupIds = [...new Set(added.groupIds.filter((id) => !current.groupIds.includes(id)))];
  const total = current.userIds.length + current.groupIds.length + userIds.length + groupIds.length;
  if (total > MAX_PARTICIPANTS) throw new RuleViolated(TOO_MANY_PEOPLE);
  requireNotBlocked(recipients);
  return { userIds, groupIds };
}

function requireNotBlocked(recipients: readonly Recipient[]): void {
  if (recipients.some((recipient) => recipient.blockedSender)) throw new Forbidden(BLOCKED_BY_RECIPIENT);
}

/** What a conversation opens with: a title and a first message, held to a topic's limits. */
export function openingMessage(input: { title: string; body: string }): { title: string; body: string } {
  return {
    title: requireText(input.title, 'Title', MAX_TITLE).trim(),
    body: requireText(input.body, 'Body', MAX_TOPIC_BODY),
  };
}

/** A member of a group that takes part in a conversation. */
export interface GroupMember {
  userId: number;
  groupId: number;
}

/**
 * Who a new message in a conversation reaches: everyone who takes part in it (the visibility policy's `takesPart`,
 * asked of each user named and each member of a group named), its author aside; in id order.
 */
export function audienceOf(conversation: ConversationFacts, members: readonly GroupMember[], authorId: number): number[] {
  const groupsOf = new Map<number, Set<number>>();
  for (const member of members) {
    if (!conversation.groupIds.has(member.groupId)) continue;
    let groups = groupsOf.get(member.userId);
    if (!groups) groupsOf.set(member.userId, (groups = new Set()));
    groups.add(member.groupId);
  }
  const candidates = new Set([...conversation.userIds, ...groupsOf.keys()]);
  candidates.delete(authorId);
  return [...candidates].filter((id) => takesPart(id, groupsOf.get(id) ?? new Set(), conversation)).sort((a, b) => a - b);
}
