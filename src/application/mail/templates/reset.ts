import type { Template } from './layout.js';

/** Forgot password: a link to choose a new one (contract §16b). */
export const resetMail: Template<{ link: string; hours: number }> = {
  en: ({ site, login, link, hours }) => ({
    subject: `Reset your password at ${site}`,
    paragraphs: [`Someone asked to reset the password of ${login} at ${site}. To choose a new password, open this link:`],
    action: { label: 'Choose a new password', url: link },
    after: [
      `The link works once, for ${hours} ${hours === 1 ? 'hour' : 'hours'}. If you did not ask, ignore this mail: your password stays as it is.`,
    ],
  }),
  'zh-CN': ({ site, login, link, hours }) => ({
    subject: `重置你在 ${site} 的密码`,
    paragraphs: [`有人请求重置 ${site} 上账号 ${login} 的密码。要设置新密码，请打开这个链接：`],
    action: { label: '设置新密码', url: link },
    after: [`链接只能使用一次，在 ${hours} 小时内有效。如果不是你本人的请求，请忽略这封邮件，你的密码不会改变。`],
  }),
};
