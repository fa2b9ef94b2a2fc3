import { ContainerModule } from 'inversify';
import { ListAudit } from '../src/application/audit/audit-log.js';
import { QueueDigests } from '../src/application/mail/digests.js';
import { ListMail, ShowMail } from '../src/application/mail/mailbox.js';
import { ListInboundMail } from '../src/application/mail/receive-mail.js';
import { PurgeDeliveries, PurgeEvents, PurgeNotifications, Recount } from '../src/application/maintenance/maintenance.js';
import { SeedDatabase } from '../src/application/maintenance/seed.js';
import { CreateNode, CreateSection, SetNodeHidden, SetNodeSection } from '../src/application/nodes/manage-nodes.js';
import { SetNodeAccess } from '../src/application/nodes/node-access.js';
import { ChangeGroupMembers, CreateGroup, DeleteGroup, UpdateGroup } from '../src/application/groups/manage-groups.js';
import { CreateApp, ListApps } from '../src/application/oauth/clients.js';
import { GroupReadModel, NodeReadModel, ReplyReadModel, TopicReadModel, UserReadModel } from '../src/application/read-models.js';
import { DeleteReply } from '../src/application/replies/delete-reply.js';
import { ListReplies } from '../src/application/replies/list-replies.js';
import { ReindexSearch } from '../src/application/search/reindex.js';
import {
  DescribeToken,
  IssueToken,
  ListTokens,
  PurgeTokens,
  RevokeAllTokens,
  RevokeToken,
} from '../src/application/tokens/access-tokens.js';
import { DeleteTopic } from '../src/application/topics/delete-topic.js';
import { ListTopics } from '../src/application/topics/list-topics.js';
import { MoveNodeTopics } from '../src/application/topics/move-node-topics.js';
import { MoveTopic } from '../src/application/topics/move-topic.js';
import {
  ApproveAccount,
  ListPendingAccounts,
  MakeResetLink,
  RejectAccount,
  VerifyAccount,
} from '../src/application/accounts/approval.js';
import { CreateInvite, ListInvites, RevokeInvite } from '../src/application/accounts/invites.js';
import { DeleteAccount } from '../src/application/accounts/leaving.js';
import { TopicAction } from '../src/application/topics/topic-action.js';
import { CreateUser } from '../src/application/users/create-user.js';
import { BlockNode, BlockUser, ChangeRole } from '../src/application/users/manage-users.js';
import { ManageWebhooks } from '../src/application/webhooks/webhooks.js';
import { ListReviewItems, ResolveReview, ShowReviewItem } from '../src/application/review/review-queue.js';
import { DisciplineUser } from '../src/application/users/discipline.js';
import { ResetSecondFactor } from '../src/application/second-factors/reset.js';
import { DeleteUpload, ListUploads, PurgeOrphanUploads } from '../src/application/uploads/manage-uploads.js';
import { ImportHomeland } from '../src/application/imports/import-homeland.js';
import { MigrateUploads } from '../src/application/uploads/migrate-uploads.js';
import { UploadRecords } from '../src/application/uploads/ports.js';
import { AddProvider, ListProviders, RemoveProvider } from '../src/application/providers/providers.js';
import { record } from '../src/container/bind.js';
import { CliUseCases } from './runtime.js';

/**
 * forumctl's records, as the API's and the pages' are theirs (src/container/api.ts, web.ts): what its commands call,
 * each use case as its feature's module bound it. forumctl loads it into the core alone (src/container/core.ts); the
 * tests, into the whole container (src/container.ts).
 */
export const forumctlModule = new ContainerModule(({ bind }) => {
  record<CliUseCases>(bind, CliUseCases, {
    users: UserReadModel,
    nodes: NodeReadModel,
    topics: TopicReadModel,
    replies: ReplyReadModel,
    uploads: UploadRecords,
    listTopics: ListTopics,
    listReplies: ListReplies,

    createUser: CreateUser,
    listPendingAccounts: ListPendingAccounts,
    approveAccount: ApproveAccount,
    rejectAccount: RejectAccount,
    verifyAccount: VerifyAccount,
    makeResetLink: MakeResetLink,
    deleteAccount: DeleteAccount,
    createInvite: CreateInvite,
    listInvites: ListInvites,
    revokeInvite: RevokeInvite,
    changeRole: ChangeRole,
    disciplineUser: DisciplineUser,
    resetSecondFactor: ResetSecondFactor,
    blockNode: BlockNode,
    blockUser: BlockUser,
    createNode: CreateNode,
    setNodeAccess: SetNodeAccess,
    groups: GroupReadModel,
    createGroup: CreateGroup,
    updateGroup: UpdateGroup,
    deleteGroup: DeleteGroup,
    changeGroupMembers: ChangeGroupMembers,
    setNodeHidden: SetNodeHidden,
    createSection: CreateSection,
    setNodeSection: SetNodeSection,
    topicAction: TopicAction,
    deleteTopic: DeleteTopic,
    moveTopic: MoveTopic,
    moveNodeTopics: MoveNodeTopics,
    deleteReply: DeleteReply,

    createApp: CreateApp,
    listApps: ListApps,
    issueToken: IssueToken,
    describeToken: DescribeToken,
    revokeToken: RevokeToken,
    listTokens: ListTokens,
    revokeAllTokens: RevokeAllTokens,
    purgeTokens: PurgeTokens,

    recount: Recount,
    purgeNotifications: PurgeNotifications,
    purgeEvents: PurgeEvents,
    purgeDeliveries: PurgeDeliveries,
    seedDatabase: SeedDatabase,
    reindexSearch: ReindexSearch,
    webhooks: ManageWebhooks,
    listAudit: ListAudit,
    listMail: ListMail,
    showMail: ShowMail,
    queueDigests: QueueDigests,
    listInboundMail: ListInboundMail,
    listReviewItems: ListReviewItems,
    showReviewItem: ShowReviewItem,
    resolveReview: ResolveReview,
    listUploads: ListUploads,
    deleteUpload: DeleteUpload,
    purgeOrphanUploads: PurgeOrphanUploads,
    migrateUploads: MigrateUploads,
    importHomeland: ImportHomeland,
    addProvider: AddProvider,
    listProviders: ListProviders,
    removeProvider: RemoveProvider,
  });
});
