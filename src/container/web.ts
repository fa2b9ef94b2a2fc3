import { ContainerModule } from 'inversify';
import { CreatePersonalToken, ListPersonalTokens, RevokePersonalToken } from '../application/tokens/personal-tokens.js';
import { Clock } from '../application/ports.js';
import { DeleteOwnAccount, ExportAccount } from '../application/accounts/leaving.js';
import { RequestPasswordReset, ResetPassword } from '../application/accounts/password-reset.js';
import { MailPreferencesOf } from '../application/accounts/preferences.js';
import { ChangePassword, RequestEmailChange, UpdateProfile } from '../application/accounts/profile.js';
import { SignUp } from '../application/accounts/sign-up.js';
import { ConfirmAddress, DescribeMailLink, ResendVerification } from '../application/accounts/verification.js';
import { ListConversationReplies, ListConversations, ShowConversation } from '../application/conversations/read-conversations.js';
import {
  AddParticipants,
  LeaveConversation,
  ReplyToConversation,
  StartConversation,
} from '../application/conversations/write-conversations.js';
import { LikeObject } from '../application/likes/like.js';
import { Unsubscribe } from '../application/mail/unsubscribe.js';
import {
  CountUnreadNotifications,
  DeleteAllNotifications,
  DeleteNotification,
  ListNotifications,
  MarkNotificationsRead,
} from '../application/notifications/manage-notifications.js';
import { ApproveAuthorization, CheckAuthorizationRequest } from '../application/oauth/authorization.js';
import { PasswordLogin } from '../application/oauth/password-login.js';
import { OpenWebSession, ResolveWebSession, SignOut } from '../application/oauth/web-sessions.js';
import {
  ConfirmTotpEnrolment,
  RegenerateRecoveryCodes,
  ShowSecondFactor,
  StartTotpEnrolment,
  TurnOffSecondFactor,
} from '../application/second-factors/enrolment.js';
import { AddPasskey, RemovePasskey, StartPasskeyRegistration } from '../application/second-factors/passkeys.js';
import { BeginSignIn, FinishSignIn } from '../application/second-factors/sign-in-step.js';
import { WritingRights } from '../application/nodes/writing-rights.js';
import { PreviewPost } from '../application/posts/preview.js';
import { NodeReadModel, ReplyReadModel, SitemapReadModel, TopicReadModel, UserReadModel } from '../application/read-models.js';
import { CreateReply } from '../application/replies/create-reply.js';
import { DeleteReply } from '../application/replies/delete-reply.js';
import { ListReplies } from '../application/replies/list-replies.js';
import { UpdateReply } from '../application/replies/update-reply.js';
import { FlagPost } from '../application/review/flag-post.js';
import { ListReviewItems, ResolveReview } from '../application/review/review-queue.js';
import { SearchContent } from '../application/search/search.js';
import { CreateTopic } from '../application/topics/create-topic.js';
import { DeleteTopic } from '../application/topics/delete-topic.js';
import { ListTopics } from '../application/topics/list-topics.js';
import { MoveTopic } from '../application/topics/move-topic.js';
import { ShowTopic } from '../application/topics/show-topic.js';
import { TopicAction } from '../application/topics/topic-action.js';
import { FavoriteTopic, FollowTopic } from '../application/topics/topic-relations.js';
import { UpdateTopic } from '../application/topics/update-topic.js';
import { UploadPhoto } from '../application/uploads/upload-photo.js';
import { ListActiveUsers } from '../application/users/community.js';
import { DisciplineUser } from '../application/users/discipline.js';
import { BlockNode, BlockUser, FollowUser, ShowUser } from '../application/users/manage-users.js';
import { ListFollows, ListUserFavorites, ListUserReplies, ListUserTopics } from '../application/users/user-lists.js';
import { AccountPageUseCases, RegistrationSetting } from '../adapters/web/routes/account.js';
import { AuthorizeRouteUseCases } from '../adapters/web/routes/authorize.js';
import { FeedUseCases } from '../adapters/web/routes/feeds.js';
import { MessagePageUseCases } from '../adapters/web/routes/messages.js';
import { ModeratingPageUseCases } from '../adapters/web/routes/moderating.js';
import { NotificationPageUseCases } from '../adapters/web/routes/notifications.js';
import { PeoplePageUseCases } from '../adapters/web/routes/people.js';
import { ReadingPageUseCases } from '../adapters/web/routes/reading.js';
import { SitemapUseCases } from '../adapters/web/routes/sitemap.js';
import { WritingPageUseCases } from '../adapters/web/routes/writing.js';
import type { Config } from '../config.js';
import { ListProviderLinks, UnlinkProvider } from '../application/providers/links.js';
import { BeginProviderSignIn, ChooseProviderLogin, FinishProviderSignIn } from '../application/providers/provider-sign-in.js';
import { ListProviders } from '../application/providers/providers.js';
import { ProviderPageUseCases } from '../adapters/web/routes/providers.js';
import { AppConfig, provide, record } from './bind.js';

/**
 * The pages' driving side (src/adapters/web): what each of their routers calls, as one record of the use cases and
 * read models its feature's module binds, and the registration mode the account pages show.
 */
export const webModule = new ContainerModule(({ bind }) => {
  record<AuthorizeRouteUseCases>(bind, AuthorizeRouteUseCases, {
    checkAuthorizationRequest: CheckAuthorizationRequest,
    resolveWebSession: ResolveWebSession,
    passwordLogin: PasswordLogin,
    beginSignIn: BeginSignIn,
    approveAuthorization: ApproveAuthorization,
    signOut: SignOut,
    listProviders: ListProviders,
  });
  record<ProviderPageUseCases>(bind, ProviderPageUseCases, {
    beginProviderSignIn: BeginProviderSignIn,
    finishProviderSignIn: FinishProviderSignIn,
    chooseProviderLogin: ChooseProviderLogin,
    unlinkProvider: UnlinkProvider,
    listProviders: ListProviders,
    beginSignIn: BeginSignIn,
    resolveWebSession: ResolveWebSession,
  });

  provide(bind, RegistrationSetting, (config: Config) => config.registration, [AppConfig]);
  record<AccountPageUseCases>(bind, AccountPageUseCases, {
    registration: RegistrationSetting,
    signUp: SignUp,
    resendVerification: ResendVerification,
    describeMailLink: DescribeMailLink,
    confirmAddress: ConfirmAddress,
    requestPasswordReset: RequestPasswordReset,
    resetPassword: ResetPassword,
    openWebSession: OpenWebSession,
    resolveWebSession: ResolveWebSession,
    passwordLogin: PasswordLogin,
    beginSignIn: BeginSignIn,
    finishSignIn: FinishSignIn,
    signOut: SignOut,
    users: UserReadModel,
    updateProfile: UpdateProfile,
    requestEmailChange: RequestEmailChange,
    changePassword: ChangePassword,
    mailPreferences: MailPreferencesOf,
    deleteOwnAccount: DeleteOwnAccount,
    exportAccount: ExportAccount,
    createPersonalToken: CreatePersonalToken,
    listPersonalTokens: ListPersonalTokens,
    revokePersonalToken: RevokePersonalToken,
    showSecondFactor: ShowSecondFactor,
    startTotpEnrolment: StartTotpEnrolment,
    confirmTotpEnrolment: ConfirmTotpEnrolment,
    turnOffSecondFactor: TurnOffSecondFactor,
    regenerateRecoveryCodes: RegenerateRecoveryCodes,
    startPasskeyRegistration: StartPasskeyRegistration,
    addPasskey: AddPasskey,
    removePasskey: RemovePasskey,
    unsubscribe: Unsubscribe,
    listProviders: ListProviders,
    providerLinks: ListProviderLinks,
  });

  record<NotificationPageUseCases>(bind, NotificationPageUseCases, {
    resolveWebSession: ResolveWebSession,
    countUnread: CountUnreadNotifications,
    listNotifications: ListNotifications,
    markNotificationsRead: MarkNotificationsRead,
    deleteNotification: DeleteNotification,
    deleteAllNotifications: DeleteAllNotifications,
  });
  record<MessagePageUseCases>(bind, MessagePageUseCases, {
    resolveWebSession: ResolveWebSession,
    countUnread: CountUnreadNotifications,
    listConversations: ListConversations,
    showConversation: ShowConversation,
    listConversationReplies: ListConversationReplies,
    startConversation: StartConversation,
    replyToConversation: ReplyToConversation,
    addParticipants: AddParticipants,
    leaveConversation: LeaveConversation,
    previewPost: PreviewPost,
    uploadPhoto: UploadPhoto,
    replies: ReplyReadModel,
  });
  record<ModeratingPageUseCases>(bind, ModeratingPageUseCases, {
    resolveWebSession: ResolveWebSession,
    countUnread: CountUnreadNotifications,
    topics: TopicReadModel,
    nodes: NodeReadModel,
    topicAction: TopicAction,
    moveTopic: MoveTopic,
    deleteTopic: DeleteTopic,
    showUser: ShowUser,
    disciplineUser: DisciplineUser,
    listReviewItems: ListReviewItems,
    resolveReview: ResolveReview,
  });
  record<WritingPageUseCases>(bind, WritingPageUseCases, {
    resolveWebSession: ResolveWebSession,
    countUnread: CountUnreadNotifications,
    nodes: NodeReadModel,
    topics: TopicReadModel,
    updateTopic: UpdateTopic,
    createTopic: CreateTopic,
    previewPost: PreviewPost,
    uploadPhoto: UploadPhoto,
    writingRights: WritingRights,
  });
  record<PeoplePageUseCases>(bind, PeoplePageUseCases, {
    resolveWebSession: ResolveWebSession,
    countUnread: CountUnreadNotifications,
    listActiveUsers: ListActiveUsers,
    showUser: ShowUser,
    listUserTopics: ListUserTopics,
    listUserReplies: ListUserReplies,
    listUserFavorites: ListUserFavorites,
    listFollows: ListFollows,
    followUser: FollowUser,
    blockUser: BlockUser,
  });
  record<ReadingPageUseCases>(bind, ReadingPageUseCases, {
    resolveWebSession: ResolveWebSession,
    countUnread: CountUnreadNotifications,
    listTopics: ListTopics,
    showTopic: ShowTopic,
    listReplies: ListReplies,
    nodes: NodeReadModel,
    search: SearchContent,
    createReply: CreateReply,
    previewPost: PreviewPost,
    replies: ReplyReadModel,
    like: LikeObject,
    followTopic: FollowTopic,
    favoriteTopic: FavoriteTopic,
    flagPost: FlagPost,
    updateReply: UpdateReply,
    deleteTopic: DeleteTopic,
    deleteReply: DeleteReply,
    uploadPhoto: UploadPhoto,
    blockNode: BlockNode,
    topics: TopicReadModel,
    writingRights: WritingRights,
    clock: Clock,
  });

  record<FeedUseCases>(bind, FeedUseCases, {
    listTopics: ListTopics,
    listUserTopics: ListUserTopics,
    nodes: NodeReadModel,
    topics: TopicReadModel,
  });

  record<SitemapUseCases>(bind, SitemapUseCases, {
    sitemap: SitemapReadModel,
    nodes: NodeReadModel,
  });
});
