import { ContainerModule } from 'inversify';
import { ChangePassword, UpdateProfile } from '../application/accounts/profile.js';
import { DeleteOwnAccount, ExportAccount } from '../application/accounts/leaving.js';
import { MailPreferencesOf } from '../application/accounts/preferences.js';
import { RequestPasswordReset } from '../application/accounts/password-reset.js';
import { SignUp } from '../application/accounts/sign-up.js';
import { ResendVerification } from '../application/accounts/verification.js';
import { ListAudit } from '../application/audit/audit-log.js';
import { ManageDevices } from '../application/devices/devices.js';
import { LikeObject } from '../application/likes/like.js';
import { ReceiveMail } from '../application/mail/receive-mail.js';
import {
  CountUnreadNotifications,
  DeleteAllNotifications,
  DeleteNotification,
  ListNotifications,
  MarkNotificationsRead,
} from '../application/notifications/manage-notifications.js';
import { RedeemAuthorizationCode } from '../application/oauth/authorization.js';
import { AuthenticateClient } from '../application/oauth/clients.js';
import { PasswordLogin } from '../application/oauth/password-login.js';
import { ResolveWebSession } from '../application/oauth/web-sessions.js';
import { GroupReadModel, NodeReadModel, ReplyReadModel, TopicReadModel, UserReadModel } from '../application/read-models.js';
import { CreateReply } from '../application/replies/create-reply.js';
import { DeleteReply } from '../application/replies/delete-reply.js';
import { ListReplies } from '../application/replies/list-replies.js';
import { UpdateReply } from '../application/replies/update-reply.js';
import { FlagPost } from '../application/review/flag-post.js';
import { ListReviewItems, ResolveReview, ShowReviewItem } from '../application/review/review-queue.js';
import { SearchContent } from '../application/search/search.js';
import { DescribeToken, IssueToken, LookupRefreshToken, RevokeToken } from '../application/tokens/access-tokens.js';
import { CreateTopic } from '../application/topics/create-topic.js';
import { DeleteTopic } from '../application/topics/delete-topic.js';
import { ListTopics } from '../application/topics/list-topics.js';
import { CountUnreadTopics, MarkAllTopicsRead, MarkTopicRead } from '../application/topics/read-state.js';
import { ShowTopic } from '../application/topics/show-topic.js';
import { TopicAction } from '../application/topics/topic-action.js';
import { FavoriteTopic, FollowTopic } from '../application/topics/topic-relations.js';
import { UpdateTopic } from '../application/topics/update-topic.js';
import { ListOwnUploads, DeleteUpload } from '../application/uploads/manage-uploads.js';
import { UploadPhoto } from '../application/uploads/upload-photo.js';
import { ListActiveUsers, ListBlockedUsers } from '../application/users/community.js';
import { BlockNode, BlockUser, FollowUser, ShowUser } from '../application/users/manage-users.js';
import { ListFollows, ListUserFavorites, ListUserReplies, ListUserTopics } from '../application/users/user-lists.js';
import { AccountRouteUseCases } from '../adapters/api/routes/accounts.js';
import { PersonalTokenRouteUseCases } from '../adapters/api/routes/personal-tokens.js';
import { CreatePersonalToken, ListPersonalTokens, RevokePersonalToken } from '../application/tokens/personal-tokens.js';
import { AdminRouteUseCases } from '../adapters/api/routes/admin.js';
import { DeviceRouteUseCases } from '../adapters/api/routes/devices.js';
import { InboundMailRouteUseCases } from '../adapters/api/routes/inbound-email.js';
import { NodeRouteUseCases } from '../adapters/api/routes/nodes.js';
import { GroupRouteUseCases } from '../adapters/api/routes/groups.js';
import { MessageRouteUseCases } from '../adapters/api/routes/messages.js';
import {
  CountUnreadMessages,
  ListConversationReplies,
  ListConversations,
  ShowConversation,
} from '../application/conversations/read-conversations.js';
import {
  AddParticipants,
  LeaveConversation,
  ReplyToConversation,
  StartConversation,
} from '../application/conversations/write-conversations.js';
import { NotificationRouteUseCases } from '../adapters/api/routes/notifications.js';
import { OAuthRouteUseCases } from '../adapters/api/routes/oauth.js';
import { ReplyRouteUseCases } from '../adapters/api/routes/replies.js';
import { ReviewRouteUseCases } from '../adapters/api/routes/review.js';
import { SearchRouteUseCases } from '../adapters/api/routes/search.js';
import { TopicRouteUseCases } from '../adapters/api/routes/topics.js';
import { UploadRouteUseCases } from '../adapters/api/routes/upload-api.js';
import { UserRouteUseCases } from '../adapters/api/routes/users.js';
import type { Config } from '../config.js';
import { AppConfig, provide, record } from './bind.js';

/** The inbound endpoint's settings (InboundMailRouteUseCases' `endpoint`), from the configuration. */
const InboundEndpoint = Symbol.for('InboundEndpoint');

/**
 * The JSON API's driving side (src/adapters/api): what each of its routers calls, as one record of the use cases
 * and read models its feature's module binds.
 */
export const apiModule = new ContainerModule(({ bind }) => {
  record<OAuthRouteUseCases>(bind, OAuthRouteUseCases, {
    authenticateClient: AuthenticateClient,
    passwordLogin: PasswordLogin,
    issueToken: IssueToken,
    lookupRefreshToken: LookupRefreshToken,
    redeemAuthorizationCode: RedeemAuthorizationCode,
    revokeToken: RevokeToken,
    describeToken: DescribeToken,
  });

  record<TopicRouteUseCases>(bind, TopicRouteUseCases, {
    topics: TopicReadModel,
    listTopics: ListTopics,
    countUnreadTopics: CountUnreadTopics,
    markTopicRead: MarkTopicRead,
    markAllTopicsRead: MarkAllTopicsRead,
    showTopic: ShowTopic,
    createTopic: CreateTopic,
    updateTopic: UpdateTopic,
    deleteTopic: DeleteTopic,
    followTopic: FollowTopic,
    favoriteTopic: FavoriteTopic,
    topicAction: TopicAction,
  });

  record<ReplyRouteUseCases>(bind, ReplyRouteUseCases, {
    replies: ReplyReadModel,
    listReplies: ListReplies,
    createReply: CreateReply,
    updateReply: UpdateReply,
    deleteReply: DeleteReply,
    like: LikeObject,
  });

  record<NotificationRouteUseCases>(bind, NotificationRouteUseCases, {
    listNotifications: ListNotifications,
    countUnreadNotifications: CountUnreadNotifications,
    resolveWebSession: ResolveWebSession,
    markNotificationsRead: MarkNotificationsRead,
    deleteAllNotifications: DeleteAllNotifications,
    deleteNotification: DeleteNotification,
  });

  record<UserRouteUseCases>(bind, UserRouteUseCases, {
    users: UserReadModel,
    listActiveUsers: ListActiveUsers,
    listBlockedUsers: ListBlockedUsers,
    listUserTopics: ListUserTopics,
    listUserFavorites: ListUserFavorites,
    listUserReplies: ListUserReplies,
    listFollows: ListFollows,
    showUser: ShowUser,
    followUser: FollowUser,
    blockUser: BlockUser,
  });
  record<DeviceRouteUseCases>(bind, DeviceRouteUseCases, { devices: ManageDevices });

  record<AccountRouteUseCases>(bind, AccountRouteUseCases, {
    users: UserReadModel,
    updateProfile: UpdateProfile,
    changePassword: ChangePassword,
    mailPreferences: MailPreferencesOf,
    exportAccount: ExportAccount,
    deleteOwnAccount: DeleteOwnAccount,
    signUp: SignUp,
    requestPasswordReset: RequestPasswordReset,
    resendVerification: ResendVerification,
  });

  record<PersonalTokenRouteUseCases>(bind, PersonalTokenRouteUseCases, {
    createPersonalToken: CreatePersonalToken,
    listPersonalTokens: ListPersonalTokens,
    revokePersonalToken: RevokePersonalToken,
  });

  record<NodeRouteUseCases>(bind, NodeRouteUseCases, { nodes: NodeReadModel, blockNode: BlockNode });
  record<GroupRouteUseCases>(bind, GroupRouteUseCases, { groups: GroupReadModel });
  record<MessageRouteUseCases>(bind, MessageRouteUseCases, {
    startConversation: StartConversation,
    replyToConversation: ReplyToConversation,
    addParticipants: AddParticipants,
    leaveConversation: LeaveConversation,
    listConversations: ListConversations,
    showConversation: ShowConversation,
    listConversationReplies: ListConversationReplies,
    countUnreadMessages: CountUnreadMessages,
    flagPost: FlagPost,
  });

  record<UploadRouteUseCases>(bind, UploadRouteUseCases, {
    uploadPhoto: UploadPhoto,
    listOwnUploads: ListOwnUploads,
    deleteUpload: DeleteUpload,
  });

  record<SearchRouteUseCases>(bind, SearchRouteUseCases, { search: SearchContent });

  record<AdminRouteUseCases>(bind, AdminRouteUseCases, { listAudit: ListAudit });

  record<ReviewRouteUseCases>(bind, ReviewRouteUseCases, {
    flagPost: FlagPost,
    listReviewItems: ListReviewItems,
    showReviewItem: ShowReviewItem,
    resolveReview: ResolveReview,
  });

  provide(
    bind,
    InboundEndpoint,
    (config: Config) => ({
      token: config.mail.inboundToken,
      enabled: config.mail.inboundToken !== null && config.mail.replyAddress !== null,
    }),
    [AppConfig],
  );
  record<InboundMailRouteUseCases>(bind, InboundMailRouteUseCases, { receiveMail: ReceiveMail, endpoint: InboundEndpoint });
});
