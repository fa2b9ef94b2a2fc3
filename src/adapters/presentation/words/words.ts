import type { WhoMay } from '../../../application/nodes/writing-rights.js';
import type { MailList } from '../../../application/ports.js';
import type { DENIED } from '../../../domain/shared/policy.js';
import type { FlagReason, ReviewAction, ReviewResolution } from '../../../domain/events.js';
import type { EmailDigest, EmailMessages, EmailNotifications, Locale } from '../../../domain/users/user.js';

/**
 * The words of the service, the scheme every language fills (contract §16b, §21: English and Simplified Chinese):
 * what the pages say and what the mail says. A language is one complete object of this type (en.ts, zh-CN.ts): the
 * compiler refuses one that lacks a word. A word that takes values is a function of them; one that wraps markup
 * (a login in bold, say) takes it as a part and returns the parts in the language's order.
 */
export interface Words {
  /** The language's own name, for the links to the page in it. */
  languageName: string;
  /** The /account pages: joining, signing in, settings. */
  account: AccountWords;
  /** Two-factor sign-in (contract §25): the sign-in step that asks for the code, and its settings. */
  twoFactor: TwoFactorWords;
  /** The page of an unsubscribe link. */
  unsubscribe: UnsubscribeWords;
  /** The sign-in and consent pages of the authorization code grant (/oauth/authorize). */
  authorize: AuthorizeWords;
  /** What the mail says (contract §16b, §17). */
  mail: MailWords;
  /** The forum's own pages (contract §21): lists, topics, people, search. */
  forum: ForumWords;
  /** Moderation on the forum's pages, for administrators (contract §21b). */
  moderation: ModerationWords;
  /** Private messages' pages (contract §24). */
  messages: MessageWords;
  /** Signing in with another provider, and the settings' links to providers (contract §25). */
  providers: ProviderWords;
  /** The settings page's tokens for scripts (contract §25). */
  personalTokens: PersonalTokenWords;
}

/** Signing in with another provider (contract §25). */
export interface ProviderWords {
  /** The heading above the providers' buttons on a sign-in or sign-up page. */
  orWith: string;
  signInWith: (provider: string) => string;
  chooseLoginTitle: string;
  chooseLoginIntro: (provider: string) => string;
  createAccountButton: string;
  refusedTitle: string;
  /** The provider's answer did not check out (state, nonce, signature), or the person declined there. */
  answerRejected: string;
  /** The flow's cookie is missing, spent or of another provider. */
  flowExpired: string;
  notConfigured: string;
  waitingTitle: string;
  waiting: (login: string) => string;
  linksTitle: string;
  linksIntro: string;
  linkedWith: (provider: string) => string;
  removeButton: string;
  linkButton: (provider: string) => string;
  onlyWayIn: string;
  noLinks: string;
  linked: (provider: string) => string;
  removed: (provider: string) => string;
}

/** The settings page's section of personal access tokens (contract §25). */
export interface PersonalTokenWords {
  title: string;
  intro: string;
  none: string;
  name: string;
  nameHint: string;
  scope: string;
  scopeChoices: Record<'read' | 'all', string>;
  expires: string;
  /** A choice of lifetime: a number of days, or null for never. */
  expiryChoice: (days: number | null) => string;
  createButton: string;
  /** Shown once, above the token. */
  created: (name: string) => string;
  newToken: string;
  copyNow: string;
  /** One token's line: when made, last used, until when (already in the language's date format). */
  madeAt: (when: string) => string;
  lastUsedAt: (when: string | null) => string;
  expiresAt: (when: string | null) => string;
  revokeButton: (name: string) => string;
  revoked: string;
  /** A token revoked or expired before its revoke button was pressed. */
  gone: string;
}

/** The forum's pages (contract §21a). */
export interface ForumWords {
  siteName: string;
  /** The menu. */
  topics: string;
  nodes: string;
  users: string;
  search: string;
  searchLabel: string;
  searchButton: string;
  signIn: string;
  signUp: string;
  settings: string;
  newTopic: string;
  /** An administrator's link to the review queue (contract §18). */
  reviewQueue: string;
  notifications: string;
  /** The link to one's private messages (contract §24). */
  messages: string;
  /** The notifications link's name for screen readers, with the unread count. */
  notificationsLabel: (unread: number) => string;
  /** The same, `{n}` for the count (what the pages' script fills in as the count changes). */
  unreadTemplate: string;
  mainMenu: string;
  /** The footer's link to the API's page. */
  api: string;
  /** The lists' tabs. */
  lists: { last_actived: string; recent: string; popular: string; no_reply: string; excellent: string };
  listsLabel: string;
  noTopics: string;
  pinned: string;
  excellent: string;
  closed: string;
  repliesCount: (count: number) => string;
  /**
   * Where a signed-in reader left off (contract §22): beside a topic of a list, its replies they have yet to read (a
   * link to the first), that link's name for screen readers (beginning with what it shows), a topic made lately that
   * they never opened, and the line in a topic above the first reply they have yet to read.
   */
  newReplies: (count: number) => string;
  newRepliesLink: (count: number) => string;
  unopened: string;
  newRepliesLine: string;
  likesCount: (count: number) => string;
  hits: (count: number) => string;
  by: string;
  lastReplyBy: string;
  /** A time in the reader's words (an ISO date and time, UTC, for machines, beside). */
  at: (when: Date) => string;
  previous: string;
  next: string;
  pageOf: (page: number) => string;
  pagination: string;
  // a topic
  replies: string;
  noReplies: string;
  floor: (floor: number) => string;
  deletedReply: string;
  /** A system event, one line: who did what (the action's name as it comes from the core). */
  event: (login: string, action: string) => string;
  signInToReply: string;
  // taking part (contract §21b)
  like: string;
  follow: string;
  favorite: string;
  block: string;
  yourReply: string;
  markdownHint: string;
  preview: string;
  previewButton: string;
  replyButton: string;
  closedToReplies: string;
  /** Instead of the reply form, to a reader the node does not let reply (contract §23): who may. */
  whoMayReply: (who: WhoMay) => string;
  /** Instead of the new topic form, for a node chosen that does not let the reader start topics: who may. */
  whoMayStartTopics: (who: WhoMay, node: string) => string;
  /** The new topic form with no node the reader may start a topic in. */
  noTopicNodes: string;
  /** From a node the reader may not start topics in, to the form with those they may. */
  otherTopicNodes: string;
  /** A post of theirs that waits for an administrator (contract §18). */
  heldForReview: string;
  node: string;
  chooseNode: string;
  title: string;
  body: string;
  publishButton: string;
  // flags and deleting (contract §18, §21b)
  more: string;
  flagReason: string;
  flagReasons: { spam: string; inappropriate: string; off_topic: string; other: string };
  flagMessage: string;
  flagMessageHint: string;
  flagButton: string;
  flagged: string;
  deletePost: string;
  quote: string;
  edit: string;
  editReply: string;
  editTopic: string;
  saveButton: string;
  // an image in what one writes (contract §19, §21b)
  addImage: string;
  imageHint: string;
  imageTooLarge: string;
  /** Said by the page's script while it uploads, and once the image is in (it reads them from the page). */
  uploading: string;
  imageAdded: string;
  uploadFailed: string;
  // notifications (contract §21b): what happened, who did it and the topic as parts (links), in the language's order
  noNotifications: string;
  unread: string;
  goneTopic: string;
  notifiedReply: <T>(who: T, topic: T) => (string | T)[];
  notifiedMention: <T>(who: T, topic: T) => (string | T)[];
  notifiedMoved: <T>(topic: T, node: string) => (string | T)[];
  notifiedTopic: <T>(who: T, topic: T) => (string | T)[];
  notifiedFollow: <T>(who: T) => (string | T)[];
  deleteNotification: string;
  deleteAllNotifications: string;
  // a node
  nodeTopics: (node: string) => string;
  nodeFeed: string;
  /** A node the reader blocked (contract §21b): its topics leave their lists. */
  nodeBlocked: string;
  // people
  activeUsers: string;
  profileOf: (login: string) => string;
  joined: (when: Date) => string;
  userTopics: string;
  userReplies: string;
  userFavorites: string;
  followers: string;
  following: string;
  nobody: string;
  replyIn: string;
  // search
  searchTitle: (q: string) => string;
  searchIntro: string;
  noResults: string;
  // errors
  notFoundTitle: string;
  notFound: string;
  backHome: string;
}

/** A phrase around a part that is not plain text (a login in bold, a host in code), in the language's order. */
export type Around = <T>(part: T) => (string | T)[];

/** What a form says when the core (or the page) refuses what it sent: the words the one refusal path uses. */
export interface RefusalWords {
  wrongLogin: string;
  notConfirmed: string;
  awaitingApproval: string;
  /** A suspended account, until when (an ISO date and time, UTC). */
  suspended: (until: string) => string;
  tooMany: (seconds: number) => string;
  /** A rule's message from the core, in this language where we know it (else as it came). */
  rule: (message: string) => string;
  /**
   * The refusals whose words the API keeps as homeland has them (`The current user does not have permission to …`),
   * as a person is told them on a page.
   */
  denied: Record<keyof typeof DENIED, string>;
}

export interface AccountWords extends RefusalWords {
  // sign-up
  signUpTitle: string;
  signUpIntro: string;
  login: string;
  loginHint: string;
  email: string;
  emailHint: string;
  password: string;
  passwordHint: string;
  name: string;
  optional: string;
  invite: string;
  inviteHint: string;
  /** The honeypot's label: people never see it (it is off screen); a program that fills every field does. */
  trapLabel: string;
  signUpButton: string;
  haveAccount: string;
  signInLink: string;
  fillRequired: string;
  inviteRefused: string;
  closedTitle: string;
  closedMessage: string;
  // sent
  checkMailTitle: string;
  checkMail: (email: string) => string;
  /** The same, once the address is no longer known to this browser (its cookie expired, or another browser). */
  checkMailNoAddress: string;
  checkMailHint: string;
  resendButton: string;
  resentTitle: string;
  resent: string;
  resendLogin: string;
  // verify
  confirmTitle: string;
  confirmFor: (login: string) => string;
  confirmButton: string;
  confirmedTitle: string;
  confirmedActive: (login: string) => string;
  confirmedPending: (login: string) => string;
  emailChangedTitle: string;
  emailChanged: (email: string) => string;
  continueToApp: string;
  /** After a confirmed link or a reset, with no application to go back to: the way to the forum's pages. */
  toForum: string;
  /** A verification link opened again after it confirmed the address. */
  alreadyConfirmedTitle: string;
  alreadyConfirmed: (login: string) => string;
  badLinkTitle: string;
  badLink: string;
  badLinkResend: string;
  // forgot and reset
  forgotTitle: string;
  forgotIntro: string;
  loginOrEmail: string;
  forgotButton: string;
  forgotSentTitle: string;
  forgotSent: string;
  resetTitle: string;
  resetFor: (login: string) => string;
  newPassword: string;
  repeatPassword: string;
  resetButton: string;
  passwordsDiffer: string;
  resetDoneTitle: string;
  resetDone: (login: string) => string;
  resetDonePending: string;
  /** The same pages for an account without a password, whose first the link sets (contract §25). */
  firstPasswordTitle: string;
  /** The first password's fields are 'Password' (the sign-up's word) and this: there is no old one to be new against. */
  firstPasswordRepeat: string;
  firstPasswordButton: string;
  firstPasswordDoneTitle: string;
  firstPasswordDone: (login: string) => string;
  firstPasswordDonePending: string;
  badResetLink: string;
  newResetLink: string;
  // sign in (the account pages' own)
  signInTitle: string;
  signInIntro: string;
  signInButton: string;
  forgotLink: string;
  signUpLink: string;
  // settings
  settingsTitle: string;
  signedInAs: (login: string) => string;
  signOutButton: string;
  profileTitle: string;
  location: string;
  company: string;
  twitter: string;
  github: string;
  website: string;
  tagline: string;
  bio: string;
  emailPublic: string;
  saveProfile: string;
  profileSaved: string;
  emailTitle: string;
  emailNow: (email: string) => string;
  newEmail: string;
  currentPassword: string;
  changeEmailButton: string;
  emailChangeSent: (email: string) => string;
  /** An account without a password (made by another provider, contract §25): why it cannot change its address yet. */
  emailNeedsPassword: string;
  /** The link from there to the password section's "set a password". */
  setPasswordFirst: string;
  passwordTitle: string;
  changePasswordButton: string;
  passwordChanged: string;
  /** The password section of an account without one: a reset link mailed to its address sets one. */
  noPasswordIntro: (email: string) => string;
  setPasswordButton: string;
  setPasswordSent: string;
  preferencesTitle: string;
  notificationsLabel: string;
  notificationChoices: Record<EmailNotifications, string>;
  digestLabel: string;
  digestChoices: Record<EmailDigest, string>;
  messagesLabel: string;
  messagesChoices: Record<EmailMessages, string>;
  mailLanguage: string;
  savePreferences: string;
  preferencesSaved: string;
  exportTitle: string;
  exportIntro: string;
  exportLink: string;
  deleteTitle: string;
  deleteIntro: string;
  deleteConfirm: string;
  /** An account without a password confirms leaving with its login, typed out. */
  deleteLoginLabel: (login: string) => string;
  deleteLoginHint: string;
  deleteButton: string;
  deleteUnconfirmed: string;
  goodbyeTitle: string;
  goodbye: string;
  signedOutTitle: string;
  signedOut: string;
  settingsLink: string;
  // common
  expiredTitle: string;
  expired: string;
  /** A form that carried more than a form may (an image past what the limit leaves, or a text past 1 MiB). */
  tooLargeTitle: string;
  tooLarge: string;
}

/** Two-factor sign-in (contract §25). */
export interface TwoFactorWords {
  // the sign-in step
  codeTitle: string;
  codeIntro: string;
  codeLabel: string;
  codeHint: string;
  verifyButton: string;
  wrongCode: string;
  startAgain: string;
  recoveryUsedTitle: string;
  /** After signing in with a recovery code: how many are left. */
  recoveryLeft: (left: number) => string;
  continueLink: string;
  // the settings
  title: string;
  intro: string;
  /** What the settings page says in its two-factor section. */
  statusOn: string;
  statusOff: string;
  manageLink: string;
  /** REQUIRE_2FA=admins: why an administrator was sent here. */
  requiredForAdmins: string;
  setUpButton: string;
  scanTitle: string;
  scanIntro: string;
  qrLabel: string;
  secretLabel: string;
  confirmLabel: string;
  confirmButton: string;
  codesTitle: string;
  codesIntro: string;
  codesLeft: (left: number) => string;
  regenerateTitle: string;
  regenerateIntro: string;
  regenerateButton: string;
  turnOffTitle: string;
  turnOffIntro: string;
  turnOffButton: string;
  passwordOrCode: string;
  codeInstead: string;
  turnedOff: string;
  backToSettings: string;
  /** The authenticator app's part of the settings. */
  appTitle: string;
  appOn: string;
  // passkeys (contract §25)
  passkeysTitle: string;
  passkeysIntro: string;
  noPasskeys: string;
  passkeyMade: (name: string, made: string, lastUsed: string | null) => string;
  passkeyNameLabel: string;
  addPasskeyButton: string;
  passkeysNeedScript: string;
  passkeyFailed: string;
  passkeyAdded: string;
  removePasskeyTitle: string;
  removePasskeyLabel: string;
  removePasskeyButton: string;
  passkeyRemoved: string;
  /** The sign-in step: the other way through it. */
  usePasskeyIntro: string;
  usePasskeyButton: string;
  wrongPasskey: string;
}

export interface UnsubscribeWords {
  title: string;
  /** Each kind of mail a link stops, as a phrase. */
  what: Record<MailList, string>;
  ask: (what: string) => string;
  button: string;
  done: (what: string) => string;
  settings: string;
  badTitle: string;
  bad: string;
}

export interface AuthorizeWords extends RefusalWords {
  signInTitle: string;
  signInHeading: (app: string) => string;
  loginOrEmail: string;
  password: string;
  signInButton: string;
  resendButton: string;
  noPassword: (app: string) => string;
  forgotLink: string;
  signUpLink: string;
  consentTitle: (app: string) => string;
  consentHeading: (app: string) => string;
  signedInAs: Around;
  /** What a token of each scope may do: its name and what it means. */
  scopes: Record<'all' | 'read', { title: string; detail: string }>;
  sendsBackTo: Around;
  deny: string;
  approve: string;
  notYou: (login: string) => string;
  signOutButton: string;
  /** The request cannot be trusted: an unknown application or a redirect URI it did not register. */
  badRequestTitle: string;
  startAgain: string;
  expiredTitle: string;
  expired: string;
  signInAgain: string;
  noStepTitle: string;
  noStep: string;
  sessionEnded: string;
  signedOutTitle: string;
  signedOutHeading: string;
  closePage: string;
}

/** A digest's period, as its words name it. */
export type Period = 'daily' | 'weekly';

/**
 * The words of the mail: the frame every letter shares (greeting, the copy of the button's link, the closing), then
 * each mail's. Which paragraphs a mail has, and where its links go, is the mail's (adapters/mail/compose); what they
 * say is the language's.
 */
export interface MailWords {
  greeting: (name: string) => string;
  /** Under the button: its link to copy. */
  copyLink: string;
  /** What ends a label before its link in the text part. */
  colon: string;
  /** The closing of a mail nobody answers. */
  sentAutomatically: (site: string) => string;
  verify: {
    subject: (site: string) => string;
    intro: (site: string, login: string) => string;
    button: string;
    after: (hours: number) => string;
  };
  reset: {
    subject: (site: string) => string;
    intro: (site: string, login: string) => string;
    button: string;
    after: (hours: number) => string;
  };
  /** A reset link for an account that has no password yet: it sets the first. */
  setPassword: {
    subject: (site: string) => string;
    intro: (site: string, login: string) => string;
    button: string;
    after: (hours: number) => string;
  };
  emailChange: {
    subject: (site: string) => string;
    intro: (site: string, login: string) => string;
    button: string;
    after: (hours: number) => string;
  };
  emailChanged: {
    subject: (site: string) => string;
    changed: (site: string, login: string) => string;
    ifNotYou: string;
    button: string;
  };
  passwordChanged: {
    subject: (site: string) => string;
    changed: (site: string, login: string) => string;
    ifNotYou: string;
    button: string;
  };
  signUpRepeated: {
    subject: (site: string) => string;
    tried: (site: string, login: string) => string;
    ifYou: string;
    button: string;
    ifNotYou: string;
  };
  approved: {
    subject: (site: string) => string;
    approved: (site: string, login: string) => string;
    button: (site: string) => string;
  };
  notifications: {
    /** The lead of a mail with several posts of a topic. */
    newPosts: (count: number, title: string) => string;
    /** The lead of a mail with one post, and each post's heading among several. */
    mentionedIn: (login: string, title: string) => string;
    repliedIn: (login: string, title: string) => string;
    mentioned: (login: string) => string;
    replied: (login: string) => string;
    button: string;
    replyByMail: string;
    noReplies: string;
    /** Why the recipient is mailed: their preference, and whether it is the one every account starts with. */
    why: (site: string, preference: EmailNotifications, byDefault: boolean) => string;
    unsubscribe: string;
    settings: string;
  };
  /** A conversation's new messages (contract §24). */
  messages: {
    subject: (title: string) => string;
    /** The lead of a mail with several messages, and with one. */
    newMessages: (count: number, title: string) => string;
    wrote: (login: string, title: string) => string;
    /** Each message's heading among several. */
    from: (login: string) => string;
    button: string;
    replyByMail: string;
    noReplies: string;
    why: (site: string) => string;
    unsubscribe: string;
    settings: string;
  };
  digest: {
    /** `count` topics, the first of them `first`. */
    subject: (period: Period, site: string, first: string, count: number) => string;
    intro: (count: number, site: string) => string;
    /** The line under a topic's title. */
    about: (topic: { nodeName: string; author: string; repliesCount: number; likesCount: number }) => string;
    button: (site: string) => string;
    /** Why the digest comes: the reader was away, by the period they follow (the default one, or chosen). */
    why: (period: Period, site: string, byDefault: boolean) => string;
    unsubscribe: string;
    settings: string;
  };
}

/** One language's words, by its locale. */
export type Languages = Record<Locale, Words>;

/** Moderation on the forum's pages, for administrators (contract §18, §21b): a topic's, a member's, the review queue. */
export interface ModerationWords {
  /** The panel's heading, under a topic and on a profile. */
  panel: string;
  reviewQueue: string;
  reason: string;
  reasonHint: string;
  /** An act refused to someone who is not an administrator. */
  forbidden: string;
  refusedTitle: string;
  // a topic
  pin: string;
  unpin: string;
  excellent: string;
  unexcellent: string;
  close: string;
  open: string;
  ban: string;
  delete: string;
  moveTo: string;
  move: string;
  /** The link to the topic's moderation page, where it moves. */
  moveElsewhere: string;
  chooseNode: string;
  moderateTopic: (title: string) => string;
  backToTopic: string;
  // a member
  moderateUser: (login: string) => string;
  standing: string;
  /** When (in the reader's words) a silence or suspension in force ends. */
  silencedUntil: (when: string) => string;
  suspendedUntil: (when: string) => string;
  notSilenced: string;
  notSuspended: string;
  days: string;
  daysHint: string;
  silence: string;
  suspend: string;
  unsilence: string;
  unsuspend: string;
  /** The link from a profile's panel to the member's moderation page. */
  standingLink: string;
  backToProfile: string;
  // the review queue
  /** The queue of a node's moderator (contract §23): what it holds for them, and what stays the administrators'. */
  moderatedScope: string;
  statusLabel: string;
  pending: string;
  resolved: string;
  noPending: string;
  noResolved: string;
  /** An item's heading: a flagged or held topic or reply, its number. */
  item: (kind: 'flag' | 'hold', type: 'Topic' | 'Reply', id: number) => string;
  by: string;
  inTopic: string;
  postDeleted: string;
  /** A flagged private message (contract §24), shown alone, and that showing it is written in the audit log. */
  privateMessage: string;
  lookRecorded: string;
  flags: string;
  flagReasons: Record<FlagReason, string>;
  silenceDays: string;
  silenceDaysHint: string;
  actions: Record<ReviewAction, string>;
  resolutions: Record<ReviewResolution, string>;
  itemRefused: (id: number, message: string) => string;
}

/** Private messages in a browser (contract §24): the list, a conversation, the new message form, a profile's link. */
export interface MessageWords {
  title: string;
  newMessage: string;
  /** The list with no conversation in it, saying how one starts. */
  none: string;
  lastMessageBy: string;
  /** A group taking part, by its name. */
  group: (name: string) => string;
  /** Who takes part, before their names. */
  takingPart: string;
  /** The new message form. */
  to: string;
  toHint: string;
  message: string;
  sendButton: string;
  /** The conversation page's panel of who takes part: adding people, leaving. */
  people: string;
  addPeople: string;
  addButton: string;
  leaveButton: string;
  leaveHint: string;
  /** On someone else's profile. */
  sendMessage: string;
}
