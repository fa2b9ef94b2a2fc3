import { EntitySchema } from '@mikro-orm/core';
import { Node } from '../../../domain/nodes/node.js';
import { Section } from '../../../domain/nodes/section.js';
import { Reply } from '../../../domain/replies/reply.js';
import { Topic } from '../../../domain/topics/topic.js';
import { Profile, User } from '../../../domain/users/user.js';

/**
 * The plain domain classes, mapped from the outside. Only what the aggregates own is mapped: counters
 * and join rows are written by atomic SQL in the repositories, so a flush never overwrites them.
 */
const timestamp = { type: 'datetime', length: 3 } as const;
const optionalTimestamp = { ...timestamp, nullable: true } as const;

export const UserSchema = new EntitySchema<User>({
  class: User,
  tableName: 'users',
  properties: {
    id: { type: 'integer', primary: true },
    login: { type: 'string' },
    name: { type: 'string', nullable: true },
    email: { type: 'string' },
    passwordHash: { type: 'text', nullable: true },
    role: { type: 'string' },
    state: { type: 'string' },
    locale: { type: 'string' },
    emailNotifications: { type: 'string' },
    emailDigest: { type: 'string' },
    emailMessages: { type: 'string' },
    profile: { kind: 'embedded', entity: 'Profile', prefix: false },
    selfRegistered: { type: 'boolean' },
    silencedUntil: optionalTimestamp,
    suspendedUntil: optionalTimestamp,
    createdAt: timestamp,
    updatedAt: timestamp,
  },
});

/** The profile's columns, on the users row (embedded: no table of its own). */
export const ProfileSchema = new EntitySchema<Profile>({
  class: Profile,
  embeddable: true,
  properties: {
    location: { type: 'string', nullable: true },
    company: { type: 'string', nullable: true },
    twitter: { type: 'string', nullable: true },
    github: { type: 'string', nullable: true },
    website: { type: 'string', nullable: true },
    tagline: { type: 'string', nullable: true },
    bio: { type: 'text', nullable: true },
    emailPublic: { type: 'boolean', fieldName: 'email_public' },
  },
});

export const NodeSchema = new EntitySchema<Node>({
  class: Node,
  tableName: 'nodes',
  properties: {
    id: { type: 'integer', primary: true },
    name: { type: 'string' },
    summary: { type: 'text' },
    sort: { type: 'integer' },
    hidden: { type: 'boolean' },
    sectionId: { type: 'integer', nullable: true },
    createdAt: timestamp,
    updatedAt: timestamp,
  },
});

export const TopicSchema = new EntitySchema<Topic>({
  class: Topic,
  tableName: 'topics',
  properties: {
    id: { type: 'integer', primary: true },
    userId: { type: 'integer' },
    nodeId: { type: 'integer' },
    title: { type: 'string' },
    body: { type: 'text' },
    bodyHtml: { type: 'text' },
    lockNode: { type: 'boolean' },
    grade: { type: 'string' },
    closedAt: optionalTimestamp,
    suggestedAt: optionalTimestamp,
    visibility: { type: 'string' },
    deletedAt: optionalTimestamp,
    deletedById: { type: 'integer', nullable: true },
    lastActiveAt: timestamp,
    createdAt: timestamp,
    updatedAt: timestamp,
  },
});

export const ReplySchema = new EntitySchema<Reply>({
  class: Reply,
  tableName: 'replies',
  properties: {
    id: { type: 'integer', primary: true },
    topicId: { type: 'integer' },
    userId: { type: 'integer' },
    body: { type: 'text' },
    bodyHtml: { type: 'text' },
    action: { type: 'string', nullable: true },
    visibility: { type: 'string' },
    deletedAt: optionalTimestamp,
    deletedById: { type: 'integer', nullable: true },
    createdAt: timestamp,
    updatedAt: timestamp,
  },
});

export const SectionSchema = new EntitySchema<Section>({
  class: Section,
  tableName: 'sections',
  properties: {
    id: { type: 'integer', primary: true },
    name: { type: 'string' },
    sort: { type: 'integer' },
    createdAt: timestamp,
    updatedAt: timestamp,
  },
});

export const SCHEMAS = [ProfileSchema, UserSchema, SectionSchema, NodeSchema, TopicSchema, ReplySchema];
