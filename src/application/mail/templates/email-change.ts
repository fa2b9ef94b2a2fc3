import type { Template } from './layout.js';

/** A new address, to be confirmed before it takes effect (contract §16b); sent to the new address. */
export const emailChangeMail: Template<{ link: string; hours: number }> = {
  en: ({ site, login, link, hours }) => ({
    subject: `Confirm your new e-mail address at ${site}`,
    paragraphs: [`The account ${login} at ${site} asked to use this address from now on. Confirm it:`],
    action: { label: 'Confirm this address', url: link },
    after: [
      `Until it is confirmed, mail keeps going to the previous address. The link works for ${hours} ${hours === 1 ? 'hour' : 'hours'}. If you did not ask, ignore this mail.`,
    ],
  }),
  'zh-CN': ({ site, login, link, hours }) => ({
    subject: `确认你在 ${site} 的新邮箱地址`,
    paragraphs: [`${site} 上的账号 ${login} 请求今后使用这个邮箱地址。请确认：`],
    action: { label: '确认这个地址', url: link },
    after: [`确认之前，邮件仍会发往原来的地址。链接在 ${hours} 小时内有效。如果不是你本人的请求，请忽略这封邮件。`],
  }),
};
