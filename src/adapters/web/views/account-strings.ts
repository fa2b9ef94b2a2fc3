import type { Locale } from '../../../domain/users/user.js';

/**
 * What the /account pages say, one table per language (contract §16b: English and Simplified Chinese). A
 * language is a complete table: the compiler refuses one that lacks a string.
 */
export interface AccountStrings {
  languageName: string;
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
  /** After a confirmed link or a reset, with nowhere to go back to. */
  closePage: string;
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
  badResetLink: string;
  newResetLink: string;
  // sign in (the account pages' own)
  signInTitle: string;
  signInIntro: string;
  signInButton: string;
  wrongLogin: string;
  notConfirmed: string;
  awaitingApproval: string;
  /** A suspended account, until when (an ISO date and time, UTC). */
  suspended: (until: string) => string;
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
  passwordTitle: string;
  changePasswordButton: string;
  passwordChanged: string;
  preferencesTitle: string;
  notificationsLabel: string;
  notificationChoices: Record<'mentions_and_replies' | 'mentions' | 'none', string>;
  digestLabel: string;
  digestChoices: Record<'weekly' | 'daily' | 'none', string>;
  mailLanguage: string;
  savePreferences: string;
  preferencesSaved: string;
  exportTitle: string;
  exportIntro: string;
  exportLink: string;
  deleteTitle: string;
  deleteIntro: string;
  deleteConfirm: string;
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
  tooMany: (seconds: number) => string;
  /** A rule's message from the core, in this language where we know it (else as it came). */
  rule: (message: string) => string;
}

const en: AccountStrings = {
  languageName: 'English',
  signUpTitle: 'Create an account',
  signUpIntro: 'We will send a link to your e-mail address to confirm it.',
  login: 'Login',
  loginHint: '2 to 20 letters, digits, “_”, “.” or “-”. Others see it.',
  email: 'E-mail',
  emailHint: 'Never shown to others unless you choose to.',
  password: 'Password',
  passwordHint: 'At least 8 characters. A few unrelated words make a good one.',
  name: 'Name',
  optional: '(optional)',
  invite: 'Invite code',
  inviteHint: 'This forum is open by invitation: the code is in your invite link.',
  trapLabel: 'Leave this empty',
  signUpButton: 'Create account',
  haveAccount: 'Already have an account?',
  signInLink: 'Sign in',
  fillRequired: 'Fill in your login, e-mail address and password.',
  inviteRefused: 'This invite code is not valid: it may be used up, expired or revoked.',
  closedTitle: 'Sign-up is closed',
  closedMessage: 'This forum does not take new accounts at the moment.',
  checkMailTitle: 'Check your mail',
  checkMail: (email) => `We sent a link to ${email}. Follow it to confirm your address and finish signing up.`,
  checkMailHint: 'The link works for 24 hours. Nothing arrived? Look in your spam folder, or have it sent again.',
  resendButton: 'Send the mail again',
  resentTitle: 'Mail on its way',
  resent: 'If that account is waiting for its address to be confirmed, a new link is on its way (at most one a minute).',
  resendLogin: 'Login or e-mail',
  confirmTitle: 'Confirm your address',
  confirmFor: (login) => `This confirms the e-mail address of the account ${login}.`,
  confirmButton: 'Confirm',
  confirmedTitle: 'Address confirmed',
  confirmedActive: (login) => `Your account is active. You are signed in as ${login}.`,
  confirmedPending: (login) =>
    `Thank you. The account ${login} now waits for an administrator’s approval; you can sign in once it is approved.`,
  emailChangedTitle: 'Address changed',
  emailChanged: (email) => `Your account now uses ${email}.`,
  continueToApp: 'Continue to the application',
  closePage: 'You can close this page, and sign in to the forum’s apps.',
  badLinkTitle: 'This link cannot be used',
  badLink: 'It is unknown, was used already, or has expired.',
  badLinkResend: 'Have a new confirmation link sent:',
  forgotTitle: 'Forgot your password?',
  forgotIntro: 'Give your login or e-mail address and we will mail you a link to choose a new password.',
  loginOrEmail: 'Login or e-mail',
  forgotButton: 'Send the link',
  forgotSentTitle: 'Check your mail',
  forgotSent: 'If there is such an account, a link to choose a new password is on its way to its address. It works for one hour.',
  resetTitle: 'Choose a new password',
  resetFor: (login) => `For the account ${login}.`,
  newPassword: 'New password',
  repeatPassword: 'New password again',
  resetButton: 'Change password',
  passwordsDiffer: 'The two passwords differ.',
  resetDoneTitle: 'Password changed',
  resetDone: (login) => `Your new password is set, and every other session of the account ended. You are signed in as ${login}.`,
  resetDonePending: 'Your new password is set, and every other session of the account ended.',
  badResetLink: 'This link is unknown, was used already, or has expired (a reset link works for one hour).',
  newResetLink: 'Ask for a new link',
  signInTitle: 'Sign in',
  signInIntro: 'Sign in to change your profile, address, password and mail settings.',
  signInButton: 'Sign in',
  wrongLogin: 'Wrong login or password.',
  notConfirmed: 'The e-mail address of this account is not confirmed yet: follow the link in the verification mail.',
  awaitingApproval: 'This account is waiting for an administrator’s approval.',
  suspended: (until) => `This account is suspended until ${until}.`,
  forgotLink: 'Forgot your password?',
  signUpLink: 'Create an account',
  settingsTitle: 'Account settings',
  signedInAs: (login) => `Signed in as ${login}.`,
  signOutButton: 'Sign out',
  profileTitle: 'Profile',
  location: 'Location',
  company: 'Company',
  twitter: 'Twitter',
  github: 'GitHub',
  website: 'Website',
  tagline: 'Tagline',
  bio: 'About you',
  emailPublic: 'Show my e-mail address to everyone',
  saveProfile: 'Save profile',
  profileSaved: 'Your profile is saved.',
  emailTitle: 'E-mail address',
  emailNow: (email) => `Now: ${email}`,
  newEmail: 'New address',
  currentPassword: 'Current password',
  changeEmailButton: 'Change address',
  emailChangeSent: (email) =>
    `A link was sent to ${email}. Nothing changes until you follow it (it works for 24 hours); your present address then gets a notice.`,
  passwordTitle: 'Password',
  changePasswordButton: 'Change password',
  passwordChanged:
    'Your new password is set. Every other session and app token of the account ended; this browser stays signed in.',
  preferencesTitle: 'Notification mail',
  notificationsLabel: 'Mail me about',
  notificationChoices: { mentions_and_replies: 'Mentions and replies', mentions: 'Mentions only', none: 'Nothing' },
  digestLabel: 'A digest of new topics',
  digestChoices: { weekly: 'Weekly', daily: 'Daily', none: 'Never' },
  mailLanguage: 'Language of the mail',
  savePreferences: 'Save mail settings',
  preferencesSaved: 'Your mail settings are saved.',
  exportTitle: 'Your data',
  exportIntro:
    'Everything this forum holds about you, in one JSON file: profile, topics, replies, likes, follows, notifications, devices, and when you signed in where.',
  exportLink: 'Download my data',
  deleteTitle: 'Delete the account',
  deleteIntro:
    'Your name, e-mail address, profile, devices and sessions are removed and no password works any more. What you wrote stays, shown under a “deleted_” login. This cannot be undone.',
  deleteConfirm: 'I understand: delete my account',
  deleteButton: 'Delete my account',
  deleteUnconfirmed: 'Tick the box to confirm that you want to delete the account.',
  goodbyeTitle: 'Account deleted',
  goodbye: 'Your account is deleted and you are signed out. Goodbye, and thank you for taking part.',
  signedOutTitle: 'Signed out',
  signedOut: 'You are signed out of this browser.',
  settingsLink: 'Account settings',
  expiredTitle: 'This form has expired',
  expired:
    'The form was not sent from this page, or it is too old (its security token does not match). Open the page and try again.',
  tooMany: (seconds) => `Too many attempts. Try again in ${seconds} seconds.`,
  rule: (message) => sentence(message.replace(/^Validation failed: /, '')),
};

/** A message as a sentence: the core's end without a full stop. */
const sentence = (message: string) => (/[.!?。）)]$/.test(message) ? message : `${message}.`);

/** The core's rule messages we know, in Chinese (anything else is shown as it came). */
const ZH_RULES: [RegExp, (match: RegExpExecArray) => string][] = [
  [/Password is too short \(minimum is (\d+) characters\)/, (m) => `密码太短（至少 ${m[1]} 个字符）。`],
  [/Password is too long \(maximum is (\d+) characters\)/, (m) => `密码太长（最多 ${m[1]} 个字符）。`],
  [/Password must not be your login or e-mail address/, () => '密码不能与用户名或电子邮件地址相同。'],
  [
    /Password is one of the most common passwords/,
    () => '这是最常见的密码之一，最先被猜到。几个不相关的词语组成的长密码既安全又好记。',
  ],
  [/Login has already been taken/, () => '该用户名已被占用。'],
  [/Login must be/, () => '用户名须为 2 到 20 个字母、数字、“_”、“.” 或 “-”。'],
  [/Email is invalid/, () => '电子邮件地址无效。'],
  [/Email has already been taken/, () => '该电子邮件地址已被使用。'],
  [/Name is too long/, () => '名字太长（最多 50 个字符）。'],
  [/Current password is not correct/, () => '当前密码不正确。'],
  [/^(Validation failed: )?Password is not correct/, () => '密码不正确。'],
  [/Website must be an http or https URL/, () => '个人网站须为 http 或 https 网址。'],
  [/(\w+) is too long \(maximum is (\d+) characters\)/, (m) => `${m[1]} 太长（最多 ${m[2]} 个字符）。`],
  [/(\w+) is missing/, (m) => `请填写 ${m[1]}。`],
];

const zhCN: AccountStrings = {
  languageName: '简体中文',
  signUpTitle: '注册账户',
  signUpIntro: '我们会向你的电子邮箱发送一个链接，用来确认地址。',
  login: '用户名',
  loginHint: '2 到 20 个字母、数字、“_”、“.” 或 “-”，其他人可以看到。',
  email: '电子邮件',
  emailHint: '除非你选择公开，否则不会向他人显示。',
  password: '密码',
  passwordHint: '至少 8 个字符。几个不相关的词语组成的密码就很好。',
  name: '名字',
  optional: '（可选）',
  invite: '邀请码',
  inviteHint: '本论坛仅限受邀加入：邀请码在你的邀请链接里。',
  trapLabel: '请留空',
  signUpButton: '注册',
  haveAccount: '已有账户？',
  signInLink: '登录',
  fillRequired: '请填写用户名、电子邮件地址和密码。',
  inviteRefused: '邀请码无效：可能已用完、已过期或已被撤销。',
  closedTitle: '暂停注册',
  closedMessage: '本论坛目前不接受新账户。',
  checkMailTitle: '请查收邮件',
  checkMail: (email) => `我们已向 ${email} 发送了一个链接。打开它即可确认地址、完成注册。`,
  checkMailHint: '链接 24 小时内有效。没有收到？请查看垃圾邮件，或重新发送。',
  resendButton: '重新发送邮件',
  resentTitle: '邮件已发出',
  resent: '如果该账户正在等待确认地址，新的链接已经发出（每分钟最多一封）。',
  resendLogin: '用户名或电子邮件',
  confirmTitle: '确认你的地址',
  confirmFor: (login) => `这将确认账户 ${login} 的电子邮件地址。`,
  confirmButton: '确认',
  confirmedTitle: '地址已确认',
  confirmedActive: (login) => `你的账户已启用，你已作为 ${login} 登录。`,
  confirmedPending: (login) => `谢谢。账户 ${login} 正在等待管理员批准，批准后即可登录。`,
  emailChangedTitle: '地址已更改',
  emailChanged: (email) => `你的账户现在使用 ${email}。`,
  continueToApp: '继续前往应用',
  closePage: '现在可以关闭此页面，并登录论坛的应用。',
  badLinkTitle: '此链接无法使用',
  badLink: '链接无效、已被使用或已过期。',
  badLinkResend: '重新发送确认链接：',
  forgotTitle: '忘记密码？',
  forgotIntro: '输入你的用户名或电子邮件地址，我们会发送一个设置新密码的链接。',
  loginOrEmail: '用户名或电子邮件',
  forgotButton: '发送链接',
  forgotSentTitle: '请查收邮件',
  forgotSent: '如果存在这个账户，设置新密码的链接已经发往它的邮箱，一小时内有效。',
  resetTitle: '设置新密码',
  resetFor: (login) => `账户：${login}。`,
  newPassword: '新密码',
  repeatPassword: '再次输入新密码',
  resetButton: '更改密码',
  passwordsDiffer: '两次输入的密码不一致。',
  resetDoneTitle: '密码已更改',
  resetDone: (login) => `新密码已生效，该账户的其他会话都已结束。你已作为 ${login} 登录。`,
  resetDonePending: '新密码已生效，该账户的其他会话都已结束。',
  badResetLink: '链接无效、已被使用或已过期（重置链接一小时内有效）。',
  newResetLink: '重新获取链接',
  signInTitle: '登录',
  signInIntro: '登录后可以修改个人资料、邮箱地址、密码和邮件设置。',
  signInButton: '登录',
  wrongLogin: '用户名或密码错误。',
  notConfirmed: '该账户的电子邮件地址尚未确认：请打开验证邮件中的链接。',
  awaitingApproval: '该账户正在等待管理员批准。',
  suspended: (until) => `该账户已被暂停，直到 ${until}。`,
  forgotLink: '忘记密码？',
  signUpLink: '注册账户',
  settingsTitle: '账户设置',
  signedInAs: (login) => `已作为 ${login} 登录。`,
  signOutButton: '退出登录',
  profileTitle: '个人资料',
  location: '所在地',
  company: '公司',
  twitter: 'Twitter',
  github: 'GitHub',
  website: '个人网站',
  tagline: '签名',
  bio: '个人简介',
  emailPublic: '向所有人公开我的电子邮件地址',
  saveProfile: '保存资料',
  profileSaved: '个人资料已保存。',
  emailTitle: '电子邮件地址',
  emailNow: (email) => `当前：${email}`,
  newEmail: '新地址',
  currentPassword: '当前密码',
  changeEmailButton: '更改地址',
  emailChangeSent: (email) =>
    `我们已向 ${email} 发送了一个链接。打开链接之前不会有任何更改（24 小时内有效）；更改后，原地址会收到通知。`,
  passwordTitle: '密码',
  changePasswordButton: '更改密码',
  passwordChanged: '新密码已生效。该账户的其他会话和应用令牌都已结束，此浏览器保持登录。',
  preferencesTitle: '通知邮件',
  notificationsLabel: '通过邮件通知我',
  notificationChoices: { mentions_and_replies: '提及和回复', mentions: '仅提及', none: '不通知' },
  digestLabel: '新话题摘要',
  digestChoices: { weekly: '每周', daily: '每天', none: '从不' },
  mailLanguage: '邮件语言',
  savePreferences: '保存邮件设置',
  preferencesSaved: '邮件设置已保存。',
  exportTitle: '你的数据',
  exportIntro:
    '本论坛保存的关于你的全部数据，打包成一个 JSON 文件：资料、主题、回复、点赞、关注、通知、设备，以及你在何时何处登录过。',
  exportLink: '下载我的数据',
  deleteTitle: '删除账户',
  deleteIntro:
    '你的名字、电子邮件地址、个人资料、设备和会话都会被删除，任何密码都将失效。你发表的内容会保留，显示为 “deleted_” 开头的用户名。此操作无法撤销。',
  deleteConfirm: '我明白：删除我的账户',
  deleteButton: '删除我的账户',
  deleteUnconfirmed: '请勾选确认框，确认你要删除账户。',
  goodbyeTitle: '账户已删除',
  goodbye: '你的账户已删除，你已退出登录。再见，感谢你的参与。',
  signedOutTitle: '已退出登录',
  signedOut: '你已在此浏览器上退出登录。',
  settingsLink: '账户设置',
  expiredTitle: '表单已过期',
  expired: '表单不是从本页面提交的，或者已经太久（安全令牌不匹配）。请重新打开页面再试。',
  tooMany: (seconds) => `尝试次数太多，请在 ${seconds} 秒后再试。`,
  rule: (message) => {
    for (const [pattern, say] of ZH_RULES) {
      const match = pattern.exec(message);
      if (match) return say(match);
    }
    return message.replace(/^Validation failed: /, '');
  },
};

export const ACCOUNT_STRINGS: Record<Locale, AccountStrings> = { en, 'zh-CN': zhCN };
