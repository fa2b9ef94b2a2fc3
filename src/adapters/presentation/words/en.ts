import type { Words } from './words.js';

/** A message as a sentence: the core's end without a full stop. */
const sentence = (message: string) => (/[.!?。）)]$/.test(message) ? message : `${message}.`);

/** A count and its noun: `1 reply`, `2 replies`. */
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** English. */
export const en: Words = {
  languageName: 'English',
  account: {
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
    checkMailNoAddress: 'We sent a link to the address you gave. Follow it to confirm your address and finish signing up.',
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
    alreadyConfirmedTitle: 'Address confirmed already',
    alreadyConfirmed: (login) => `This link did its work: the address of the account ${login} is confirmed already.`,
    badLinkTitle: 'This link cannot be used',
    badLink: 'It is unknown, was used already, or has expired.',
    badLinkResend: 'Have a new confirmation link sent:',
    forgotTitle: 'Forgot your password?',
    forgotIntro: 'Give your login or e-mail address and we will mail you a link to choose a new password.',
    loginOrEmail: 'Login or e-mail',
    forgotButton: 'Send the link',
    forgotSentTitle: 'Check your mail',
    forgotSent:
      'If there is such an account, a link to choose a new password is on its way to its address. It works for one hour.',
    resetTitle: 'Choose a new password',
    resetFor: (login) => `For the account ${login}.`,
    newPassword: 'New password',
    repeatPassword: 'New password again',
    resetButton: 'Change password',
    passwordsDiffer: 'The two passwords differ.',
    resetDoneTitle: 'Password changed',
    resetDone: (login) =>
      `Your new password is set, and every other session of the account ended. You are signed in as ${login}.`,
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
  },
  unsubscribe: {
    title: 'Unsubscribe',
    what: { notifications: 'mail about replies and mentions', digest: 'the digest of new topics' },
    ask: (what) => `Stop sending you ${what}?`,
    button: 'Unsubscribe',
    done: (what) => `You will get no more ${what}.`,
    settings: 'Change what you get on your settings page',
    badTitle: 'This link does not work',
    bad: 'This unsubscribe link is not one we sent, or it was cut short: use the whole link from the mail, or change your mail settings on your settings page.',
  },
  authorize: {
    signInTitle: 'Sign in',
    signInHeading: (app) => `Sign in to continue to ${app}`,
    loginOrEmail: 'Login or e-mail',
    password: 'Password',
    signInButton: 'Sign in',
    resendButton: 'Send the verification mail again',
    noPassword: (app) => `${app} will not see your password.`,
    forgotLink: 'Forgot your password?',
    signUpLink: 'Create an account',
    consentTitle: (app) => `Authorize ${app}`,
    consentHeading: (app) => `${app} wants to use your account`,
    signedInAs: (login) => ['Signed in as ', login, '.'],
    scopes: {
      all: {
        title: 'Read and write as you',
        detail:
          'Read what you can read, and act as you: post topics and replies, like, follow, block, and manage your notifications.',
      },
      read: {
        title: 'Read only',
        detail: 'Read what you can read, including your notifications. It cannot post, change or delete anything.',
      },
    },
    sendsBackTo: (where) => ['Approving sends you back to ', where, '.'],
    deny: 'Deny',
    approve: 'Approve',
    notYou: (login) => `Not ${login}?`,
    signOutButton: 'Sign out',
    badRequestTitle: 'This sign-in link cannot be used',
    startAgain: 'Go back to the application and start again.',
    expiredTitle: 'This form has expired',
    expired: 'The form was not sent from this page, or it is too old (its security token does not match).',
    signInAgain: 'Go back to the application and sign in again.',
    noStepTitle: 'This form cannot be used',
    noStep: 'The form sent no step.',
    sessionEnded: 'Your session ended. Sign in again.',
    signedOutTitle: 'Signed out',
    signedOutHeading: 'You are signed out',
    closePage: 'You can close this page.',
    wrongLogin: 'Wrong login or password.',
    notConfirmed: 'The e-mail address of this account is not confirmed yet: follow the link in the verification mail',
    awaitingApproval: 'This account is waiting for an administrator’s approval',
    suspended: (until) => `This account is suspended until ${until}`,
    tooMany: (seconds) => `Too many failed attempts. Try again in ${seconds} seconds.`,
    rule: (message) => message,
  },
  mail: {
    greeting: (name) => `Hi ${name},`,
    copyLink: 'If the button does not work, copy this link into your browser:',
    colon: ':',
    sentAutomatically: (site) => `This mail was sent automatically by ${site}; replies are not read.`,
    verify: {
      subject: (site) => `Confirm your e-mail address at ${site}`,
      intro: (site, login) =>
        `Someone, hopefully you, signed up at ${site} as ${login} with this address. Confirm it to finish signing up:`,
      button: 'Confirm my address',
      after: (hours) =>
        `The link works for ${hours} ${hours === 1 ? 'hour' : 'hours'}. If you did not sign up, ignore this mail.`,
    },
    reset: {
      subject: (site) => `Reset your password at ${site}`,
      intro: (site, login) =>
        `Someone asked to reset the password of ${login} at ${site}. To choose a new password, open this link:`,
      button: 'Choose a new password',
      after: (hours) =>
        `The link works once, for ${hours} ${hours === 1 ? 'hour' : 'hours'}. If you did not ask, ignore this mail: your password stays as it is.`,
    },
    emailChange: {
      subject: (site) => `Confirm your new e-mail address at ${site}`,
      intro: (site, login) => `The account ${login} at ${site} asked to use this address from now on. Confirm it:`,
      button: 'Confirm this address',
      after: (hours) =>
        `Until it is confirmed, mail keeps going to the previous address. The link works for ${hours} ${hours === 1 ? 'hour' : 'hours'}. If you did not ask, ignore this mail.`,
    },
    emailChanged: {
      subject: (site) => `The e-mail address of your account at ${site} was changed`,
      changed: (site, login) =>
        `The e-mail address of your account ${login} at ${site} was changed from this address to another one. Mail from ${site} now goes to the new address.`,
      ifNotYou:
        'If you did not make this change, someone else may be using your account: choose a new password at once and tell the administrators.',
      button: 'Reset my password',
    },
    passwordChanged: {
      subject: (site) => `Your password at ${site} was changed`,
      changed: (site, login) =>
        `The password of your account ${login} at ${site} was just changed, and every other session of the account was signed out.`,
      ifNotYou: 'If you did this, there is nothing more to do. If you did not, choose a new password now:',
      button: 'Reset my password',
    },
    signUpRepeated: {
      subject: (site) => `Someone tried to sign up at ${site} with your address`,
      tried: (site, login) =>
        `Someone tried to sign up at ${site} with this e-mail address, which already belongs to your account ${login}. No new account was made.`,
      ifYou: 'If it was you and you have forgotten your password, you can choose a new one:',
      button: 'Reset my password',
      ifNotYou: 'If it was not you, ignore this mail: your account is unchanged.',
    },
    approved: {
      subject: (site) => `Your account at ${site} is ready`,
      approved: (site, login) => `An administrator approved your account ${login} at ${site}. You can sign in now.`,
      button: (site) => `Go to ${site}`,
    },
    notifications: {
      newPosts: (count, title) => `${count} new posts in “${title}”:`,
      mentionedIn: (login, title) => `${login} mentioned you in “${title}”:`,
      repliedIn: (login, title) => `${login} replied in “${title}”:`,
      mentioned: (login) => `${login} mentioned you`,
      replied: (login) => `${login} replied`,
      button: 'View the topic',
      replyByMail: 'Reply to this mail to post your answer in the topic.',
      noReplies: 'Replies to this mail are not read: answer in the topic.',
      why: (site, preference, byDefault) =>
        byDefault
          ? `You get this mail because ${site} mails every account of replies to its topics and of mentions: that is ` +
            'the forum’s default until you choose otherwise. Change it in the mail settings, or unsubscribe.'
          : `You get this mail because you chose, in your mail settings at ${site}, to be mailed of ` +
            `${preference === 'mentions' ? 'mentions' : 'replies and mentions'}. Change it there, or unsubscribe.`,
      unsubscribe: 'Unsubscribe',
      settings: 'Mail settings',
    },
    digest: {
      subject: (period, site, first, count) =>
        `${period === 'daily' ? 'Today' : 'This week'} at ${site}: ${first}${
          count > 1 ? ` and ${plural(count - 1, 'more topic', 'more topics')}` : ''
        }`,
      intro: (count, site) =>
        `Here ${count === 1 ? 'is the most active topic' : `are the ${count} most active topics`} started at ${site} since you were last there:`,
      about: (topic) =>
        `${topic.nodeName} · ${topic.author} · ${plural(topic.repliesCount, 'reply', 'replies')}` +
        (topic.likesCount > 0 ? ` · ${plural(topic.likesCount, 'like', 'likes')}` : ''),
      button: (site) => `Visit ${site}`,
      why: (period, site, byDefault) =>
        `You get this ${period} digest because you have not visited ${site} for a while. It stops coming while you visit. ` +
        (byDefault
          ? 'A weekly digest is the forum’s default until you choose otherwise: change it in the mail settings.'
          : 'You chose it in the mail settings, where you can change it.'),
      unsubscribe: 'Unsubscribe from these digests',
      settings: 'Mail settings',
    },
  },
};
