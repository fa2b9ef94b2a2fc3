import type { Template } from './layout.js';

/** The address changed once the new one was confirmed (contract §16b): a notice to the previous address. */
export const emailChangedMail: Template<{ forgotLink: string }> = {
  en: ({ site, login, forgotLink }) => ({
    subject: `The e-mail address of your account at ${site} was changed`,
    paragraphs: [
      `The e-mail address of your account ${login} at ${site} was changed from this address to another one. Mail from ${site} now goes to the new address.`,
      'If you did not make this change, someone else may be using your account: choose a new password at once and tell the administrators.',
    ],
    action: { label: 'Reset my password', url: forgotLink },
  }),
  'zh-CN': ({ site, login, forgotLink }) => ({
    subject: `你在 ${site} 的账号邮箱地址已更改`,
    paragraphs: [
      `你在 ${site} 的账号 ${login} 的邮箱地址已从这个地址改为另一个地址，今后 ${site} 的邮件将发往新地址。`,
      '如果这不是你本人的操作，可能有人正在使用你的账号：请立即设置新密码，并告知管理员。',
    ],
    action: { label: '重置密码', url: forgotLink },
  }),
};
