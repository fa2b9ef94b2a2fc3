import type { Template } from './layout.js';

/** Sign-up: confirm the address (contract §16b). The link opens a page whose button spends the token. */
export const verifyMail: Template<{ link: string; hours: number }> = {
  en: ({ site, login, link, hours }) => ({
    subject: `Confirm your e-mail address at ${site}`,
    paragraphs: [`Someone, hopefully you, signed up at ${site} as ${login} with this address. Confirm it to finish signing up:`],
    action: { label: 'Confirm my address', url: link },
    after: [`The link works for ${hours} ${hours === 1 ? 'hour' : 'hours'}. If you did not sign up, ignore this mail.`],
  }),
  'zh-CN': ({ site, login, link, hours }) => ({
    subject: `确认你在 ${site} 的邮箱地址`,
    paragraphs: [`有人（希望是你）用这个邮箱地址在 ${site} 注册了账号 ${login}。请确认地址以完成注册：`],
    action: { label: '确认邮箱地址', url: link },
    after: [`链接在 ${hours} 小时内有效。如果不是你本人注册的，请忽略这封邮件。`],
  }),
};
