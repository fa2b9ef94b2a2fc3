import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { browserSuite, type ContextOptions, DESKTOP, lookAtTemplate, PHONE, watch } from '../support/browser-session.js';
import { api, makeNode, makeReply, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { checkedApi } from '../support/openapi.js';
import { configuredWith, testEnv } from '../support/env.js';

/**
 * Moderation as an administrator meets it (contract §21b), in Debian's Chromium with scripts off: signed in through
 * the sign-in page on a phone (390×844), a topic banned from its panel, the review queue opened. Then every
 * moderation page (a topic with its panel, a topic's moderation page, a profile with its panel, a member's standing,
 * the queue pending and resolved) on a phone, a desktop and a dark phone, in English and Simplified Chinese: axe-core
 * (WCAG 2.2 AA and best practices) finds nothing serious or critical, nothing is wider than the screen, and a full-page
 * screenshot goes to /tmp/moderating-shots/<page>-<width>-<lang>[-dark].png for a person to look at.
 */
const SHOTS = '/tmp/moderating-shots';
const PASSWORD = 'correct horse battery';

interface Forum {
  topic: number;
  spam: number;
}

/** A topic with replies, one reply flagged by two members, and a new member's reply held for review. */
async function fillForum(): Promise<Forum> {
  const made = await forumctl(['users', 'create', 'root', '--email', 'root@example.com', '--password', PASSWORD, '--admin']);
  expect(made.code, made.stderr).to.equal(0);
  const alice = await makeUser('alice');
  const bob = await makeUser('bob');
  const carol = await makeUser('carol');
  await testEnv().sql(`update users set created_at = now() - interval '2 years' where login in ('alice', 'bob', 'carol')`);
  const ruby = await makeNode('Ruby');
  await makeNode('分享');
  await makeNode('Jobs');
  const topic = await makeTopic(
    alice,
    ruby,
    'How we moved our forum from homeland without breaking a single link',
    'We moved a **homeland** forum here last week.\n\n```bash\nforumctl import homeland --from postgres://old-db/homeland\n```',
  );
  const spam = await makeTopic(bob, ruby, 'Cheap watches, best prices', 'Visit my shop for the best prices.');
  await makeReply(bob, topic, 'Thanks for writing this up, it helps a lot.');
  const flagged = await makeReply(bob, topic, 'Buy **cheap** watches at my shop, best prices in town!');
  await api().post(`/api/v3/replies/${flagged}/flag`).set(alice.auth).send({ reason: 'spam' }).expect(200);
  await api()
    .post(`/api/v3/replies/${flagged}/flag`)
    .set(carol.auth)
    .send({ reason: 'other', message: 'The same text in three topics today' })
    .expect(200);
  // A new member's first reply, held (HOLD_FIRST_POSTS=1), in Chinese.
  const { app } = configuredWith({ review: { ...testEnv().config.review, holdFirstPosts: 1 } });
  const li = await makeUser('li_lei');
  await testEnv().sql("update users set self_registered = true where login = 'li_lei'");
  await checkedApi(app)
    .post(`/api/v3/topics/${topic}/replies`)
    .set(li.auth)
    .send({ body: '学习了，感谢分享！请问导入十万个话题大概需要多久？' })
    .expect(200);
  // Something resolved already, for the resolved list.
  const old = await makeReply(carol, spam, 'Off topic, sorry');
  const admin = await makeUser('moderator', 'admin');
  await api().post(`/api/v3/replies/${old}/flag`).set(alice.auth).send({ reason: 'off_topic' }).expect(200);
  const items = (await api().get('/api/v3/admin/review').set(admin.auth).expect(200)).body.items as {
    id: number;
    target_id: number;
  }[];
  const item = items.find((each) => each.target_id === old)!;
  await api().post(`/api/v3/admin/review/${item.id}`).set(admin.auth).send({ action: 'disagree', reason: 'fine' }).expect(200);
  return { topic, spam };
}

describe('Moderation pages, in a browser (contract §21b)', function () {
  this.timeout(300_000);
  const suite = browserSuite({ shots: SHOTS });
  let forum: Forum;

  beforeEach(async function () {
    this.timeout(120_000);
    forum = await fillForum();
  });

  /** A phone's browser with scripts off; the API's absolute URLs (the avatars') are reached at the test server. */
  const newContext = (options: ContextOptions = {}): Promise<BrowserContext> =>
    suite.newContext({ isMobile: true, javaScriptEnabled: false, ...options });

  /** Signs in as the administrator through the sign-in page, as a person does. */
  const signIn = (page: Page, lang = 'en'): Promise<void> => suite.signIn(page, 'root', PASSWORD, { lang });

  it('bans a topic from its panel on a phone, with scripts off, and opens the review queue', async () => {
    const context = await newContext({ locale: 'en' });
    const page = await context.newPage();
    const problems = watch(page);
    await signIn(page);
    await page.goto(`${suite.server.url}/topics/${forum.spam}?lang=en`);
    const panel = page.getByRole('region', { name: 'Moderation' });
    expect(await panel.isVisible()).to.equal(true);
    await page.screenshot({ path: `${SHOTS}/flow-topic-before-390-en.png`, fullPage: true });

    // Enter in the reason field presses none of the panel's buttons.
    await page.getByLabel('Reason (optional)').fill('Spam: a shop, not a question');
    await page.getByLabel('Reason (optional)').press('Enter');
    await page.waitForTimeout(500);
    expect(await page.getByLabel('Reason (optional)').inputValue()).to.equal('Spam: a shop, not a question');
    expect(new URL(page.url()).pathname).to.equal(`/topics/${forum.spam}`);
    expect((await api().get(`/api/v3/topics/${forum.spam}`).expect(200)).body.topic.node_name).to.equal('Ruby');

    await Promise.all([page.waitForURL(`**/topics/${forum.spam}`), panel.getByRole('button', { name: 'Ban' }).click()]);
    expect(await page.locator('article .about').innerText()).to.include('NoPoint');
    expect(await page.locator('ol.replies').innerText()).to.include('root banned this topic');
    await page.screenshot({ path: `${SHOTS}/flow-topic-banned-390-en.png`, fullPage: true });
    const [entry] = await testEnv().sql<{ reason: string }>(
      "select reason from audit_entries where action = 'topic.ban' and target_id = $1",
      [forum.spam],
    );
    expect(entry?.reason).to.equal('Spam: a shop, not a question');

    await page.getByRole('link', { name: 'Review queue' }).click();
    expect(new URL(page.url()).pathname).to.equal('/admin/review');
    expect(await page.locator('h1').innerText()).to.equal('Review queue');
    expect(await page.locator('li.review-item').count()).to.equal(2);
    await page.screenshot({ path: `${SHOTS}/flow-review-390-en.png`, fullPage: true });
    expect(problems).to.deep.equal([]);
  });

  const SCREENS = [
    { name: 'phone', viewport: PHONE, colorScheme: 'light', suffix: '' },
    { name: 'desktop', viewport: DESKTOP, colorScheme: 'light', suffix: '' },
    { name: 'phone, dark', viewport: PHONE, colorScheme: 'dark', suffix: '-dark' },
  ] as const;

  for (const lang of ['en', 'zh-CN'] as const) {
    it(`passes axe-core with nothing serious on every moderation page, in ${lang}; shots in ${SHOTS}`, async () => {
      const pages: [string, string][] = [
        ['topic', `/topics/${forum.topic}`],
        ['topic-moderate', `/topics/${forum.topic}/moderate`],
        ['profile', '/bob'],
        ['standing', '/admin/users/bob'],
        ['review', '/admin/review'],
        ['review-resolved', '/admin/review?status=resolved'],
      ];
      const failures: string[] = [];
      for (const screen of SCREENS) {
        const options = {
          viewport: screen.viewport,
          isMobile: screen.viewport === PHONE,
          colorScheme: screen.colorScheme,
          locale: lang,
        };
        const seen = await newContext(options);
        const page = await seen.newPage();
        const problems = watch(page);
        await signIn(page, lang);
        // axe is a script of its own, which the pages' CSP (rightly) refuses: it runs where the CSP is bypassed.
        const checked = await newContext({ ...options, javaScriptEnabled: true, bypassCSP: true });
        const axePage = await checked.newPage();
        await signIn(axePage, lang);
        for (const [name, path] of pages) {
          const url = `${suite.server.url}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`;
          const where = `${path} (${screen.name}, ${lang})`;
          const shot = `${SHOTS}/${name}-${screen.viewport.width}-${lang}${screen.suffix}.png`;
          await lookAtTemplate(page, axePage, { url, where, status: 200, lang, shot }, failures);
        }
        failures.push(...problems);
      }
      expect(failures.length, failures.join('\n')).to.equal(0);
    });
  }
});
