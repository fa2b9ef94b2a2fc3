import type { NodeReadModel, ReplyReadModel, TopicReadModel, UserReadModel } from './read-models.js';
import type {
  CountUnreadNotifications,
  DeleteAllNotifications,
  DeleteNotification,
  ListNotifications,
  MarkNotificationsRead,
} from './notifications/manage-notifications.js';
import type { LiveNotifications } from './notifications/live-notifications.js';
import type { LikeObject } from './likes/like.js';
import type { CreateReply } from './replies/create-reply.js';
import type { DeleteReply } from './replies/delete-reply.js';
import type { ListReplies } from './replies/list-replies.js';
import type { UpdateReply } from './replies/update-reply.js';
import type { CreateNode, SetNodeHidden } from './nodes/manage-nodes.js';
import type { SearchContent } from './search/search.js';
import type { ReindexSearch } from './search/reindex.js';
import type { DeliverWebhook, ManageWebhooks } from './webhooks/webhooks.js';
import type { ListAudit } from './audit/audit-log.js';
import type {
  Authenticate,
  DescribeToken,
  IssueToken,
  ListTokens,
  LookupRefreshToken,
  PurgeTokens,
  RevokeAllTokens,
  RevokeToken,
} from './tokens/access-tokens.js';
import type { ApproveAuthorization, CheckAuthorizationRequest, RedeemAuthorizationCode } from './oauth/authorization.js';
import type { ResolveWebSession, SignIn, SignOut } from './oauth/web-sessions.js';
import type { AuthenticateClient, CreateApp, ListApps } from './oauth/clients.js';
import type { PasswordLogin } from './oauth/password-login.js';
import type { PurgeEvents, PurgeDeliveries, PurgeNotifications, Recount } from './maintenance/maintenance.js';
import type { SeedDatabase } from './maintenance/seed.js';
import type { MoveNodeTopics } from './topics/move-node-topics.js';
import type { CreateTopic } from './topics/create-topic.js';
import type { DeleteTopic } from './topics/delete-topic.js';
import type { ListTopics } from './topics/list-topics.js';
import type { MoveTopic } from './topics/move-topic.js';
import type { ShowTopic } from './topics/show-topic.js';
import type { TopicAction } from './topics/topic-action.js';
import type { FavoriteTopic, FollowTopic } from './topics/topic-relations.js';
import type { UpdateTopic } from './topics/update-topic.js';
import type { CreateUser } from './users/create-user.js';
import type { BlockNode, BlockUser, ChangeRole, FollowUser, ShowUser } from './users/manage-users.js';
import type { ListFollows, ListUserFavorites, ListUserReplies, ListUserTopics } from './users/user-lists.js';
import type { ListActiveUsers, ListBlockedUsers } from './users/community.js';
import type { ManageDevices } from './devices/devices.js';
import type { UploadPhoto } from './photos/upload-photo.js';

/**
 * Everything the driving adapters (HTTP, forumctl) may call: the use cases, and the read models for reads that
 * carry no rule. Built once by the container; the adapters never see the container itself.
 */
export interface UseCases {
  authenticate: Authenticate;
  issueToken: IssueToken;
  revokeToken: RevokeToken;
  lookupRefreshToken: LookupRefreshToken;
  purgeTokens: PurgeTokens;
  describeToken: DescribeToken;
  listTokens: ListTokens;
  revokeAllTokens: RevokeAllTokens;
  passwordLogin: PasswordLogin;
  checkAuthorizationRequest: CheckAuthorizationRequest;
  approveAuthorization: ApproveAuthorization;
  redeemAuthorizationCode: RedeemAuthorizationCode;
  signIn: SignIn;
  resolveWebSession: ResolveWebSession;
  signOut: SignOut;
  authenticateClient: AuthenticateClient;
  createApp: CreateApp;
  listApps: ListApps;

  listTopics: ListTopics;
  showTopic: ShowTopic;
  createTopic: CreateTopic;
  updateTopic: UpdateTopic;
  deleteTopic: DeleteTopic;
  followTopic: FollowTopic;
  favoriteTopic: FavoriteTopic;
  topicAction: TopicAction;
  moveTopic: MoveTopic;
  moveNodeTopics: MoveNodeTopics;

  listReplies: ListReplies;
  createReply: CreateReply;
  updateReply: UpdateReply;
  deleteReply: DeleteReply;
  like: LikeObject;

  listNotifications: ListNotifications;
  countUnreadNotifications: CountUnreadNotifications;
  liveNotifications: LiveNotifications;
  markNotificationsRead: MarkNotificationsRead;
  deleteNotification: DeleteNotification;
  deleteAllNotifications: DeleteAllNotifications;

  createUser: CreateUser;
  showUser: ShowUser;
  followUser: FollowUser;
  listUserTopics: ListUserTopics;
  listUserFavorites: ListUserFavorites;
  listUserReplies: ListUserReplies;
  listFollows: ListFollows;
  changeRole: ChangeRole;
  blockNode: BlockNode;
  blockUser: BlockUser;
  listActiveUsers: ListActiveUsers;
  listBlockedUsers: ListBlockedUsers;
  devices: ManageDevices;
  uploadPhoto: UploadPhoto;

  recount: Recount;
  purgeNotifications: PurgeNotifications;
  purgeEvents: PurgeEvents;
  purgeDeliveries: PurgeDeliveries;
  seedDatabase: SeedDatabase;

  createNode: CreateNode;
  setNodeHidden: SetNodeHidden;
  search: SearchContent;
  reindexSearch: ReindexSearch;
  webhooks: ManageWebhooks;
  listAudit: ListAudit;
  deliverWebhook: DeliverWebhook;

  topics: TopicReadModel;
  replies: ReplyReadModel;
  nodes: NodeReadModel;
  users: UserReadModel;
}
export const UseCases = Symbol.for('UseCases');
