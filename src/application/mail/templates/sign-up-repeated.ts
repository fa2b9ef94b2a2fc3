import type { Template } from './layout.js';

/**
 * Someone signed up with an address that already has an account (contract §16b): its owner is told, and the
 * sign-up itself answered as any other, so that nobody learns which addresses are known.
 */
export const signUpRepeatedMail: Template<{ forgotLink: string }> = {
  en: ({ site, login, forgotLink }) => ({
    subject: `Someone tried to sign up at ${site} with your address`,
    paragraphs: [
      `Someone tried to sign up at ${site} with this e-mail address, which already belongs to your account ${login}. No new account was made.`,
      'If it was you and you have forgotten your password, you can choose a new one:',
    ],
    action: { label: 'Reset my password', url: forgotLink },
    after: ['If it was not you, ignore this mail: your account is unchanged.'],
  }),
  'zh-CN': ({ site, login, forgotLink }) => ({
    subject: `有人尝试用你的邮箱地址在 ${site} 注册`,
    paragraphs: [
      `有人尝试用这个邮箱地址在 ${site} 注册，但这个地址已属于你的账号 ${login}，所以没有创建新账号。`,
      '如果是你本人并且忘记了密码，可以设置新密码：',
    ],
    action: { label: '重置密码', url: forgotLink },
    after: ['如果不是你，请忽略这封邮件，你的账号没有任何变化。'],
  }),
};
