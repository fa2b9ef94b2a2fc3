import type { Template } from './layout.js';

/** An administrator let a pending account in (REGISTRATION=approval, contract §16b). */
export const approvedMail: Template<object> = {
  en: ({ site, siteUrl, login }) => ({
    subject: `Your account at ${site} is ready`,
    paragraphs: [`An administrator approved your account ${login} at ${site}. You can sign in now.`],
    action: { label: `Go to ${site}`, url: siteUrl },
  }),
  'zh-CN': ({ site, siteUrl, login }) => ({
    subject: `你在 ${site} 的账号已通过审核`,
    paragraphs: [`管理员已通过你在 ${site} 的账号 ${login}。现在可以登录了。`],
    action: { label: `前往 ${site}`, url: siteUrl },
  }),
};
