import type { ActingUser } from '../src/application/actor.js';
import type { ListAudit } from '../src/application/audit/audit-log.js';
import type { QueueDigests } from '../src/application/mail/digests.js';
import type { ListMail, ShowMail } from '../src/application/mail/mailbox.js';
import type { ListInboundMail } from '../src/application/mail/receive-mail.js';
import type { PurgeDeliveries, PurgeEvents, PurgeNotifications, Recount } from '../src/application/maintenance/maintenance.js';
import type { SeedDatabase } from '../src/application/maintenance/seed.js';
import type { CreateNode, CreateSection, SetNodeHidden, SetNodeSection } from '../src/application/nodes/manage-nodes.js';
import type { SetNodeAccess } from '../src/application/nodes/node-access.js';
import type { ChangeGroupMembers, CreateGroup, DeleteGroup, UpdateGroup } from '../src/application/groups/manage-groups.js';
import type { CreateApp, ListApps } from '../src/application/oauth/clients.js';
import type {
  GroupReadModel,
  NodeReadModel,
  ReplyReadModel,
  TopicReadModel,
  UserReadModel,
} from '../src/application/read-models.js';
import type { DeleteReply } from '../src/application/replies/delete-reply.js';
import type { ListReplies } from '../src/application/replies/list-replies.js';
import type { ImportHomeland } from '../src/application/imports/import-homeland.js';
import type { ReindexSearch } from '../src/application/search/reindex.js';
import type {
  DescribeToken,
  IssueToken,
  ListTokens,
  PurgeTokens,
  RevokeAllTokens,
  RevokeToken,
} from '../src/application/tokens/access-tokens.js';
import type { DeleteTopic } from '../src/application/topics/delete-topic.js';
import type { ListTopics } from '../src/application/topics/list-topics.js';
import type { MoveNodeTopics } from '../src/application/topics/move-node-topics.js';
import type { MoveTopic } from '../src/application/topics/move-topic.js';
import type {
  ApproveAccount,
  ListPendingAccounts,
  MakeResetLink,
  RejectAccount,
  VerifyAccount,
} from '../src/application/accounts/approval.js';
import type { CreateInvite, ListInvites, RevokeInvite } from '../src/application/accounts/invites.js';
import type { DeleteAccount } from '../src/application/accounts/leaving.js';
import type { TopicAction } from '../src/application/topics/topic-action.js';
import type { CreateUser } from '../src/application/users/create-user.js';
import type { BlockNode, BlockUser, ChangeRole } from '../src/application/users/manage-users.js';
import type { ManageWebhooks } from '../src/application/webhooks/webhooks.js';
import type { ListReviewItems, ResolveReview, ShowReviewItem } from '../src/application/review/review-queue.js';
import type { DisciplineUser } from '../src/application/users/discipline.js';
import type { ResetSecondFactor } from '../src/application/second-factors/reset.js';
import type { DeleteUpload, ListUploads, PurgeOrphanUploads } from '../src/application/uploads/manage-uploads.js';
import type { MigrateUploads } from '../src/application/uploads/migrate-uploads.js';
import type { UploadRecords } from '../src/application/uploads/ports.js';
import type { Wire } from '../src/adapters/presentation/wire.js';
import type { AddProvider, ListProviders, RemoveProvider } from '../src/application/providers/providers.js';

/**
 * What forumctl's commands call: the same use cases as the API's (and the read models, for what a command prints),
 * resolved by the composition root (cli/container.ts).
 */
export interface CliUseCases {
  users: UserReadModel;
  nodes: NodeReadModel;
  topics: TopicReadModel;
  replies: ReplyReadModel;
  /** An upload by its id: what `uploads delete` names before it asks. */
  uploads: Pick<UploadRecords, 'find'>;
  listTopics: ListTopics;
  listReplies: ListReplies;

  createUser: CreateUser;
  listPendingAccounts: ListPendingAccounts;
  approveAccount: ApproveAccount;
  rejectAccount: RejectAccount;
  verifyAccount: VerifyAccount;
  makeResetLink: MakeResetLink;
  deleteAccount: DeleteAccount;
  createInvite: CreateInvite;
  listInvites: ListInvites;
  revokeInvite: RevokeInvite;
  changeRole: ChangeRole;
  disciplineUser: DisciplineUser;
  /** forumctl users 2fa reset (contract §25). */
  resetSecondFactor: ResetSecondFactor;
  blockNode: BlockNode;
  blockUser: BlockUser;
  createNode: CreateNode;
  setNodeAccess: SetNodeAccess;
  groups: GroupReadModel;
  createGroup: CreateGroup;
  updateGroup: UpdateGroup;
  deleteGroup: DeleteGroup;
  changeGroupMembers: ChangeGroupMembers;
  setNodeHidden: SetNodeHidden;
  createSection: CreateSection;
  setNodeSection: SetNodeSection;
  topicAction: TopicAction;
  deleteTopic: DeleteTopic;
  moveTopic: MoveTopic;
  moveNodeTopics: MoveNodeTopics;
  deleteReply: DeleteReply;

  createApp: CreateApp;
  listApps: ListApps;
  issueToken: IssueToken;
  describeToken: DescribeToken;
  revokeToken: RevokeToken;
  listTokens: ListTokens;
  revokeAllTokens: RevokeAllTokens;
  purgeTokens: PurgeTokens;

  recount: Recount;
  purgeNotifications: PurgeNotifications;
  purgeEvents: PurgeEvents;
  purgeDeliveries: PurgeDeliveries;
  seedDatabase: SeedDatabase;
  reindexSearch: ReindexSearch;
  webhooks: ManageWebhooks;
  listAudit: ListAudit;
  listMail: ListMail;
  showMail: ShowMail;
  queueDigests: QueueDigests;
  listInboundMail: ListInboundMail;
  listReviewItems: ListReviewItems;
  showReviewItem: ShowReviewItem;
  resolveReview: ResolveReview;
  listUploads: ListUploads;
  deleteUpload: DeleteUpload;
  purgeOrphanUploads: PurgeOrphanUploads;
  migrateUploads: MigrateUploads;
  importHomeland: ImportHomeland;
  addProvider: AddProvider;
  listProviders: ListProviders;
  removeProvider: RemoveProvider;
}
export const CliUseCases = Symbol.for('CliUseCases');

/** What forumctl's commands need from the outside: a database session (opened lazily) and the terminal. */
export interface CliSession {
  useCases: CliUseCases;
  wire: Wire;
  /** Runs `work` in a fresh persistence context. */
  scope<T>(work: () => Promise<T>): Promise<T>;
  migrations: {
    up(): Promise<string[]>;
    status(): Promise<{ executed: string[]; pending: string[] }>;
    /** What `down` would undo back to `to` (included; default: the last applied), newest first; null: `to` is not applied. */
    rollbackPlan(to?: string): Promise<{ name: string; reversible: boolean }[] | null>;
    /** Undoes a plan, all or nothing; refuses (nothing undone) when one of them cannot be undone. */
    down(names: string[]): Promise<string[]>;
  };
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Reads all of standard input (a password piped by a script). */
  readStdin(): Promise<string>;
  stdinIsTerminal: boolean;
  stdoutIsTerminal: boolean;
  stderrIsTerminal: boolean;
  /** Asks a yes/no question on the terminal. */
  confirm(question: string): Promise<boolean>;
  /** Asks for a secret on the terminal without echoing it. */
  secret(question: string): Promise<string>;
  /** A job's progress bars on stderr when it is a terminal; silent otherwise (scripts, --json pipes). */
  progress(): Progress;
}

/** One job's bars, drawn together: one line per step. */
export interface Progress {
  bar(label: string): ProgressBar;
  stop(): void;
}

export interface ProgressBar {
  update(done: number, total: number): void;
  stop(): void;
}

export interface CliRuntime {
  /** Opens the session; unless `migrate` is false (the `db` commands), applies pending migrations first. */
  connect(options?: { migrate?: boolean }): Promise<CliSession>;
  io: CliIo;
}

export interface GlobalOptions {
  json?: boolean;
  as?: string;
  yes?: boolean;
}

/** Everything an action gets: the session, the acting user (`--as`, or the system moderator) and the options. */
export interface ActionContext {
  session: CliSession;
  actor: ActingUser;
  options: GlobalOptions;
  io: CliIo;
}
