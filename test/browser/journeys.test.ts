import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { JobRuntime } from '../../src/adapters/jobs/runtime.js';
import { mailedLink, startMailWorker } from '../support/browser-mail.js';
import { browserSuite, type ContextOptions, focusRingShown, tabTo, watch } from '../support/browser-session.js';
import { makeNode, makeReply, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { configuredWith, testEnv } from '../support/env.js';

/**
 * Journeys through the forum as people make them (contract §21, §21b; issue 46), in Debian's Chromium at phone width
 * (390×844), from end to end across several people's browsers: joining and being answered (in English with the
 * writing done with scripts off, and in Simplified Chinese with scripts on), a new member's first post held until an
 * administrator approves it, a spam reply hidden by three members' flags, and a reply written by keyboard alone.
 * axe-core finds nothing serious or critical on the pages no other browser test checks; screenshots go to
 * /tmp/journeys-shots/<journey>-<step>-390-<lang>.png for a person to look at.
 */
const SHOTS = '/tmp/journeys-shots';
const PASSWORD = 'correct horse battery';

/** The words a person reads and clicks on the way, in each language. */
interface Language {
  lang: 'en' | 'zh-CN';
  /** What the browser asks for (Accept-Language). */
  locale: string;
  /** Sign-up to the new topic with scripts off (the live count, later, needs them on). */
  writeWithScriptsOff: boolean;
  login: string;
  node: string;
  title: string;
  body: string;
  /** Dave's answer, after `@login `. */
  answer: string;
  words: {
    signUpTitle: string;
    login: string;
    email: string;
    password: string;
    createAccount: string;
    confirm: string;
    signedIn: string;
    toForum: string;
    newTopic: string;
    node: string;
    title: string;
    body: string;
    preview: string;
    publish: string;
    unreadOne: string;
    mentioned: string;
  };
}

const LANGUAGES: Language[] = [
  {
    lang: 'en',
    locale: 'en-US',
    writeWithScriptsOff: true,
    login: 'mei',
    node: 'General',
    title: 'Where should a newcomer start?',
    body: 'I just joined. Is there a **guide** for people new here?',
    answer: 'welcome! Start with the guides, then say hello in General.',
    words: {
      signUpTitle: 'Create an account',
      login: 'Login',
      email: 'E-mail',
      password: 'Password',
      createAccount: 'Create account',
      confirm: 'Confirm',
      signedIn: 'You are signed in as mei',
      toForum: 'Go to the forum',
      newTopic: 'New topic',
      node: 'Node',
      title: 'Title',
      body: 'Body',
      preview: 'Preview',
      publish: 'Publish',
      unreadOne: 'Notifications, 1 unread',
      mentioned: 'dave mentioned you in Where should a newcomer start?',
    },
  },
  {
    lang: 'zh-CN',
    locale: 'zh-CN',
    writeWithScriptsOff: false,
    login: 'li_lei',
    node: '分享',
    title: '新人报到：应该从哪里开始？',
    body: '刚刚注册，有没有给新人的**入门指南**？',
    answer: '欢迎！先看看文档，再到分享节点打个招呼。',
    words: {
      signUpTitle: '注册账户',
      login: '用户名',
      email: '电子邮件',
      password: '密码',
      createAccount: '注册',
      confirm: '确认',
      signedIn: '你已作为 li_lei 登录',
      toForum: '前往论坛',
      newTopic: '发布话题',
      node: '节点',
      title: '标题',
      body: '正文',
      preview: '预览',
      publish: '发布',
      unreadOne: '通知，1 条未读',
      mentioned: 'dave 在 新人报到：应该从哪里开始？ 中提到了你',
    },
  },
];

/** A member who signs in with a password (made by forumctl, as an operator does: an established account). */
async function member(login: string, options: { admin?: boolean } = {}): Promise<void> {
  const made = await forumctl([
    'users',
    'create',
    login,
    '--email',
    `${login}@example.com`,
    '--password',
    PASSWORD,
    ...(options.admin ? ['--admin'] : []),
  ]);
  expect(made.code, made.stderr).to.equal(0);
}

/** The header's unread count, and the link that carries it. */
const UNREAD = 'header a[href="/notifications"]';

/** Resolves once the page's script has opened the notification stream (its answer's head has come). */
const streamOpened = (page: Page) =>
  page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v3/notifications/stream');

describe('Journeys through the forum, in a browser at phone width (contract §21b, issue 46)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ shots: SHOTS });
  let mailWorker: JobRuntime;

  before(async () => {
    mailWorker = await startMailWorker();
  });

  after(async () => {
    await mailWorker?.stop();
  });

  /** A phone's browser (scripts on unless said otherwise). */
  const phone = (options: ContextOptions = {}, at?: string) => suite.newContext({ isMobile: true, ...options }, at);

  const shoot = (page: Page, name: string, lang = 'en', fullPage = true) =>
    page.screenshot({ path: `${SHOTS}/${name}-390-${lang}.png`, fullPage });

  for (const language of LANGUAGES) {
    const { lang, login, words: w } = language;
    const writing = language.writeWithScriptsOff ? 'scripts off' : 'scripts on';
    it(`joins, starts a topic, sees the unread count move live when mentioned, and follows /notifications back to the topic (${lang}, writing with ${writing})`, async () => {
      const url = suite.server.url;
      const email = `${login}@example.com`;
      await makeNode(language.node);
      await member('dave');
      const context = await phone({ locale: language.locale, javaScriptEnabled: !language.writeWithScriptsOff });
      const page = await context.newPage();
      const complaints = [watch(page)];
      const failures: string[] = [];
      const check = async (target: Page, step: string) => {
        const found = await suite.axe(target, `${step} (${lang})`);
        if (found) failures.push(found);
      };

      // Signed out on the front page, in the browser's language; the header's link to sign up.
      await page.goto(`${url}/`);
      expect(await page.getAttribute('html', 'lang')).to.equal(lang);
      await page.locator('header a[href="/account/sign-up"]').click();
      await page.waitForURL('**/account/sign-up');
      expect(await page.locator('h1').innerText()).to.equal(w.signUpTitle);
      await page.getByLabel(w.login).fill(login);
      await page.getByLabel(w.email).fill(email);
      await page.getByLabel(w.password).fill(PASSWORD);
      await shoot(page, 'join-sign-up', lang);
      await check(page, '/account/sign-up');
      await page.getByRole('button', { name: w.createAccount, exact: true }).click();
      await page.waitForURL('**/account/sign-up/sent**');
      expect(await page.getByRole('status').innerText()).to.include(email);
      await shoot(page, 'join-check-mail', lang);
      await check(page, '/account/sign-up/sent');

      // The mailed link, opened in the same browser: confirmed, signed in, on to the forum.
      await page.goto(await mailedLink(email, '/account/verify', url));
      await shoot(page, 'join-verify', lang);
      await check(page, '/account/verify');
      await page.getByRole('button', { name: w.confirm, exact: true }).click();
      expect(await page.getByRole('status').innerText()).to.include(w.signedIn);
      await shoot(page, 'join-confirmed', lang);
      await check(page, '/account/verify (confirmed)');
      await page.getByRole('link', { name: w.toForum }).click();
      await page.waitForURL((to) => to.pathname === '/');
      expect(await page.locator(`header a[href="/${login}"]`).count(), 'signed in: the header names them').to.equal(1);

      // A topic, previewed first, from the header's "new topic".
      await page.locator('header a[href="/topics/new"]').click();
      await page.waitForURL('**/topics/new');
      expect(await page.locator('h1').innerText()).to.equal(w.newTopic);
      await page.getByLabel(w.node).selectOption({ label: language.node });
      await page.getByLabel(w.title).fill(language.title);
      await page.getByLabel(w.body).fill(language.body);
      await page.getByRole('button', { name: w.preview, exact: true }).click();
      await page.locator('.preview strong').waitFor();
      expect(await page.getByLabel(w.title).inputValue()).to.equal(language.title);
      await shoot(page, 'join-new-topic-preview', lang);
      await check(page, '/topics/new (preview)');
      // With scripts on, the topic's page opens the notification stream (§12) that keeps the count live.
      const streaming = language.writeWithScriptsOff ? null : streamOpened(page);
      await page.getByRole('button', { name: w.publish, exact: true }).click();
      await page.waitForURL(/\/topics\/\d+$/);
      const topicUrl = page.url();
      const topic = Number(new URL(topicUrl).pathname.split('/').pop());
      expect(await page.locator('h1').innerText()).to.equal(language.title);

      // Waiting on the topic's page with scripts on (the same session, if the writing was done with them off).
      let live = page;
      let opened = streaming;
      if (language.writeWithScriptsOff) {
        const on = await phone({ locale: language.locale, storageState: await context.storageState() });
        live = await on.newPage();
        complaints.push(watch(live));
        opened = streamOpened(live);
        await live.goto(topicUrl);
      }
      await opened;
      expect(await live.locator(`${UNREAD} .count`).count(), 'nothing unread yet').to.equal(0);
      await live.evaluate(() => {
        (window as unknown as { notReloaded: boolean }).notReloaded = true;
      });

      // Dave answers from his own phone (scripts off), mentioning them.
      const dave = await suite.signedInPage('dave', PASSWORD, { isMobile: true, javaScriptEnabled: false });
      await dave.goto(topicUrl);
      await dave.locator('#reply-body').fill(`@${login} ${language.answer}`);
      await dave.getByRole('button', { name: 'Reply', exact: true }).click();
      await dave.waitForURL(new RegExp(`/topics/${topic}#reply1$`));

      // The count moves where they wait, without a reload.
      await live.locator(`${UNREAD} .count`).waitFor({ timeout: 10_000 });
      expect(await live.locator(`${UNREAD} .count`).innerText()).to.equal('1');
      expect(await live.getAttribute(UNREAD, 'aria-label')).to.equal(w.unreadOne);
      expect(await live.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).to.equal(true);
      expect(await live.locator('#reply1').count(), 'the reply is not on the page until it is reloaded').to.equal(0);
      await shoot(live, 'join-live-count', lang, false);
      await check(live, `/topics/${topic} (live count)`);

      // /notifications, then its link back to the topic, where Dave's answer mentions them.
      await live.locator(UNREAD).click();
      await live.waitForURL('**/notifications');
      const notifications = live.locator('li.notification');
      expect(await notifications.count()).to.equal(1);
      expect(await notifications.locator('.about').innerText()).to.include(w.mentioned);
      expect(await notifications.locator('.body').innerText()).to.include(language.answer);
      await shoot(live, 'join-notifications', lang);
      await notifications.locator(`a[href="/topics/${topic}"]`).click();
      await live.waitForURL(new RegExp(`/topics/${topic}$`));
      expect(await live.locator('h1').innerText()).to.equal(language.title);
      expect(await live.locator('#reply1').innerText()).to.include(language.answer);
      expect(await live.locator(`#reply1 a[href="/${login}"]`).innerText()).to.equal(`@${login}`);
      expect(await live.locator(`${UNREAD} .count`).count(), 'read now').to.equal(0);
      await shoot(live, 'join-topic-answered', lang);

      expect(complaints.flat(), 'what the pages complained of').to.deep.equal([]);
      expect(failures.join('\n'), 'axe-core').to.equal('');
    });
  }

  it('holds a new member’s first reply, says so, and shows it to readers once an administrator approves it at /admin/review', async () => {
    const hold = await suite.listen(configuredWith({ review: { ...testEnv().config.review, holdFirstPosts: 1 } }).app);
    await member('root', { admin: true });
    await member('mei');
    // Mei joined by herself (contract §16b): her first post waits (HOLD_FIRST_POSTS=1).
    await testEnv().sql("update users set self_registered = true where login = 'mei'");
    const alice = await makeUser('alice');
    const topic = await makeTopic(alice, await makeNode('General'), 'Say hello, new members', 'Tell us who you are.');
    const topicUrl = `${hold.url}/topics/${topic}`;
    const words = 'Hello everyone, this is my very first post here!';
    const failures: string[] = [];

    const mei = await suite.signedInPage('mei', PASSWORD, { isMobile: true, javaScriptEnabled: false }, { at: hold.url });
    await mei.goto(topicUrl);
    await mei.getByLabel('Your reply').fill(words);
    await mei.getByRole('button', { name: 'Reply', exact: true }).click();
    await mei.waitForURL(new RegExp(`/topics/${topic}\\?held=1#reply1$`));
    expect(await mei.getByRole('status').innerText()).to.equal('Your post waits for a moderator’s review before others see it.');
    expect(await mei.locator('#reply1').innerText(), 'its author sees it').to.include(words);
    await shoot(mei, 'hold-held');
    failures.push(await suite.axe(mei, `/topics/${topic}?held=1`));

    const reader = await (await phone({ javaScriptEnabled: false }, hold.url)).newPage();
    await reader.goto(topicUrl);
    expect(await reader.locator('main').innerText(), 'nobody else sees it').not.to.include(words);
    expect(await reader.locator('#reply1').innerText(), 'it keeps its floor, as deleted').to.include('This reply was deleted.');

    // The administrator, from the header's link to the queue: the held reply, approved.
    const root = await suite.signedInPage('root', PASSWORD, { isMobile: true }, { at: hold.url });
    await root.goto(`${hold.url}/`);
    await root.locator('header a[href="/admin/review"]').click();
    await root.waitForURL('**/admin/review');
    const item = root.locator('li.review-item').filter({ hasText: words });
    expect(await item.count()).to.equal(1);
    expect(await item.locator('.about').innerText()).to.include('mei');
    await shoot(root, 'hold-review');
    await item.getByRole('button', { name: 'Approve', exact: true }).click();
    await item.waitFor({ state: 'detached' });
    expect(await root.locator('main').innerText()).to.include('Nothing waits for review.');
    await shoot(root, 'hold-review-empty');
    failures.push(await suite.axe(root, '/admin/review (empty)'));
    await root.getByRole('link', { name: 'Resolved', exact: true }).click();
    await root.waitForURL('**/admin/review?status=resolved');
    const resolved = root.locator('li.review-item').filter({ hasText: words });
    expect(await resolved.locator('.resolution').innerText())
      .to.include('Approved')
      .and.include('root');

    // The reader's page now shows it, at its floor.
    await reader.reload();
    expect(await reader.locator('#reply1').innerText())
      .to.include(words)
      .and.include('mei');
    await shoot(reader, 'hold-approved-reader');
    expect(failures.filter(Boolean).join('\n'), 'axe-core').to.equal('');
  });

  it('hides a spam reply from readers once three members have flagged it from the topic page, keeping its floor', async () => {
    const flaggers = ['ann', 'ben', 'cai'];
    for (const login of flaggers) await member(login);
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const spammer = await makeUser('watch_deals');
    const topic = await makeTopic(alice, await makeNode('Hardware'), 'Which keyboard do you use?', 'Mine is loud.');
    await makeReply(bob, topic, 'A quiet one with brown switches.');
    const spam = 'Cheap watches!!! Best prices in town at my shop, visit today';
    await makeReply(spammer, topic, spam);
    const topicUrl = `${suite.server.url}/topics/${topic}`;
    const reader = await (await phone({ javaScriptEnabled: false })).newPage();
    const failures: string[] = [];

    for (const [i, login] of flaggers.entries()) {
      // One of them with scripts off: the "More" fold is a <details>, the flag a form post.
      const page = await suite.signedInPage(login, PASSWORD, { isMobile: true, javaScriptEnabled: i !== 1 });
      await page.goto(topicUrl);
      const reply = page.locator('#reply2');
      expect(await reply.innerText()).to.include(spam);
      await reply.locator('summary').click();
      await reply.getByLabel('Flag it for a moderator').selectOption('spam');
      if (i === 0) {
        await reply.scrollIntoViewIfNeeded();
        await shoot(page, 'flag-form-open', 'en', false);
        failures.push(await suite.axe(page, `/topics/${topic} (the flag form open)`));
      }
      await reply.getByRole('button', { name: 'Flag', exact: true }).click();
      await page.waitForURL(new RegExp(`/topics/${topic}\\?flagged=1$`));
      expect(await page.getByRole('status').innerText()).to.equal('Thank you: a moderator will look at it.');

      await reader.goto(topicUrl);
      const seen = await reader.locator('#reply2').innerText();
      if (i < flaggers.length - 1) {
        expect(seen, `after ${i + 1} flag(s) the reply still shows`).to.include(spam);
      } else {
        expect(seen, 'after the third flag it keeps its floor as deleted').to.include('This reply was deleted.');
        expect(seen).not.to.include(spam);
        expect(await reader.locator('main').innerText()).not.to.include(spam);
        expect(await page.locator('#reply2').innerText(), 'the third flagger no longer sees it either').not.to.include(spam);
        await shoot(page, 'flag-hidden-flagger');
      }
    }
    expect(await reader.locator('#reply1').innerText(), 'the other reply stays').to.include('brown switches');
    await shoot(reader, 'flag-hidden-reader');
    expect(failures.filter(Boolean).join('\n'), 'axe-core').to.equal('');
  });

  it('replies by keyboard alone on a topic page: Tab to the reply field, type, preview with Enter, Tab to Reply, Enter', async () => {
    await member('kim');
    const alice = await makeUser('alice');
    const topic = await makeTopic(alice, await makeNode('General'), 'Tabs or spaces?', 'Settle it once and for all.');
    await makeReply(alice, topic, 'I will start: spaces.');
    const page = await suite.signedInPage('kim', PASSWORD);
    const problems = watch(page);
    await page.goto(`${suite.server.url}/topics/${topic}`);

    await tabTo(page, '#reply-body');
    expect(await focusRingShown(page), 'the reply field shows its focus').to.equal(true);
    await page.keyboard.type('Typed with the **keyboard** alone: tabs, @alice.');
    await tabTo(page, '#reply-form button[name=preview]');
    expect(await focusRingShown(page), 'Preview shows its focus').to.equal(true);
    await page.keyboard.press('Enter');
    await page.locator('#reply-form .preview strong').waitFor();
    expect(await page.locator('#reply-form .preview strong').innerText()).to.equal('keyboard');
    expect(await page.locator('#reply-body').inputValue()).to.equal('Typed with the **keyboard** alone: tabs, @alice.');
    await shoot(page, 'keyboard-preview', 'en', false);
    expect(await suite.axe(page, `/topics/${topic}/replies (the reply previewed)`)).to.equal('');

    await tabTo(page, '#reply-form button:not([name])');
    expect(await focusRingShown(page), 'Reply shows its focus').to.equal(true);
    await shoot(page, 'keyboard-reply-focused', 'en', false);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/topics/${topic}#reply2$`));
    expect(await page.locator('#reply2').innerText()).to.include('Typed with the keyboard alone');
    await shoot(page, 'keyboard-replied');
    expect(problems).to.deep.equal([]);
  });
});
