import type { Template } from './layout.js';

/** The password was changed or reset (contract §16b): a notice to the owner. */
export const passwordChangedMail: Template<{ forgotLink: string }> = {
  en: ({ site, login, forgotLink }) => ({
    subject: `Your password at ${site} was changed`,
    paragraphs: [
      `The password of your account ${login} at ${site} was just changed, and every other session of the account was signed out.`,
      'If you did this, there is nothing more to do. If you did not, choose a new password now:',
    ],
    action: { label: 'Reset my password', url: forgotLink },
  }),
  'zh-CN': ({ site, login, forgotLink }) => ({
    subject: `你在 ${site} 的密码已更改`,
    paragraphs: [
      `你在 ${site} 的账号 ${login} 的密码刚刚被更改，该账号的其他登录会话都已退出。`,
      '如果是你本人操作，无需再做什么。如果不是，请立即设置新密码：',
    ],
    action: { label: '重置密码', url: forgotLink },
  }),
};
