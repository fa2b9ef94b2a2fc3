import { expect } from 'chai';
import { browserSuite, DESKTOP, lookAtTemplate, PHONE, watch } from '../support/browser-session.js';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

/**
 * The forum's reading pages (contract §21a) as people meet them, in Debian's Chromium: a small, lived-in forum
 * (nodes, Markdown with code and images, a long Chinese title, mentions, a thread of 30+ replies with a deleted
 * one and moderators' events, a second page of replies, a pinned topic), then every page template at phone (390×844)
 * and desktop (1280×900) width, and on a phone in a dark theme, in English and Simplified Chinese: axe-core (WCAG 2.2
 * AA and best practices) finds nothing serious or critical, nothing is wider than the screen, the page complains of
 * nothing (a style sheet the CSP refused would show here), and a full-page screenshot goes to
 * /tmp/forum-shots/<template>-<width>-<lang>[-dark].png for a person to look at. With scripts off a topic reads and
 * the header's search works; a topic page asks for no script and no font.
 */
const SHOTS = '/tmp/forum-shots';
const LANGS = ['en', 'zh-CN'] as const;

interface Forum {
  ruby: number;
  /** The long thread: pinned, excellent, closed, 100+ replies (two pages). */
  thread: number;
  chinese: number;
}

const CODE_BODY = [
  'We moved a **homeland** forum here last week. Thanks @bob for the import script, and @li_lei for testing it.',
  '',
  '## What we did',
  '',
  '1. Dumped the old database with `pg_dump --format=custom --no-owner homeland_production > homeland.dump`',
  '2. Ran the import:',
  '',
  '```bash',
  'forumctl import homeland --from postgres://homeland:secret@old-db.internal.example.com:5432/homeland_production --uploads /var/www/homeland/shared/public/uploads --devise-pepper "$DEVISE_PEPPER"',
  '```',
  '',
  '3. Checked that the old links still work:',
  '',
  '```ruby',
  'Topic.find_each do |topic|',
  '  response = Net::HTTP.get_response(URI("https://forum.example.com/topics/#{topic.id}"))',
  '  raise "broken: #{topic.id}" unless response.is_a?(Net::HTTPSuccess)',
  'end',
  '```',
  '',
  '> Keep every id, so that `/topics/123` links and client caches stay valid.',
  '',
  'Our avatars came along too:',
  '',
  '![alice’s avatar](/avatars/alice.svg) ![bob’s avatar](/avatars/bob.svg)',
  '',
  '| Table | Rows | Time |',
  '| --- | --- | --- |',
  '| users | 12,408 | 3 s |',
  '| topics | 48,112 | 21 s |',
  '',
  'The full log is at https://gist.example.com/alice/0123456789abcdef0123456789abcdef0123456789abcdef/raw/import-log.txt',
].join('\n');

const CHINESE_TITLE = '关于在生产环境中使用 PostgreSQL 全文检索进行中文分词的一些经验总结、踩过的坑以及最终的解决方案分享';
const CHINESE_BODY = [
  '最近把论坛的搜索从 Elasticsearch 迁移到了 PostgreSQL 自带的全文检索，记录一下过程。感谢 @alice 的帮助。',
  '',
  '## 分词',
  '',
  '中文没有空格，所以需要先分词。我们用的是 `zhparser` 扩展：',
  '',
  '```sql',
  'CREATE TEXT SEARCH CONFIGURATION chinese (PARSER = zhparser);',
  'ALTER TEXT SEARCH CONFIGURATION chinese ADD MAPPING FOR n,v,a,i,e,l WITH simple;',
  "SELECT to_tsvector('chinese', '在生产环境中使用全文检索');",
  '```',
  '',
  '效果还不错，查询速度比原来快了很多。有问题欢迎回复讨论。',
].join('\n');

/** Replies as people write them: short and long, Markdown, code, mentions, Chinese, a floor quoted. */
const REPLIES = [
  'Thanks for writing this up, it helps a lot.',
  '@alice did the **sessions** survive the move? Our members would hate to sign in again.',
  'They did: devise hashes are kept and rehashed at the first sign-in.',
  '学习了，感谢分享！',
  'How long did the whole import take for you?',
  'About **25 minutes** for 48k topics, most of it in rendering the bodies again.',
  'One thing to check: `config.action_mailer.default_url_options` must point at the new host, or the mails keep old links.',
  '#3楼 说得对，我们也遇到了同样的问题。',
  'Here is what we used to compare counts:\n\n```sql\nselect count(*) from topics where deleted_at is null;\n```',
  'Supercalifragilisticexpialidocious_identifier_that_has_no_spaces_at_all_and_keeps_going_and_going_until_it_overflows',
  '+1',
  'Is there a way to import only the last two years?',
  'Not yet; it copies everything and then only what changed since.',
  '我们的论坛有十万多个话题，导入大概需要多久？',
  '@li_lei 大概一个小时左右，主要是重新渲染 Markdown。',
  'Great write-up. Bookmarked.',
  'The table above renders nicely on my phone too.',
  'Do the old `/account/sign_in` links still work?',
  'Yes, they redirect (301) to the new sign-in page.',
  'Thanks!',
];

async function backdate(user: TestUser): Promise<void> {
  // An established member: the posting rules' new-account limits are not what this test is about.
  await testEnv().sql(`update users set created_at = now() - interval '2 years' where id = $1`, [user.id]);
}

/** A realistic little forum, made through the use cases and the API as people and moderators make it. */
async function fillForum(): Promise<Forum> {
  const alice = await makeUser('alice');
  const bob = await makeUser('bob');
  const li = await makeUser('li_lei');
  const carol = await makeUser('carol');
  const admin = await makeUser('root', 'admin');
  for (const user of [alice, bob, li, carol, admin]) await backdate(user);
  await api()
    .put('/api/v3/users/me')
    .set(alice.auth)
    .send({ name: 'Alice Liddell', tagline: 'Moving forums since 2012', location: 'Oxford', bio: 'I keep the lights on.' })
    .expect(200);

  const ruby = await makeNode('Ruby');
  const share = await makeNode('分享');
  const jobs = await makeNode('Jobs');
  const meta = await makeNode('Meta');

  const thread = await makeTopic(alice, ruby, 'How we moved our forum from homeland without breaking a single link', CODE_BODY);
  const chinese = await makeTopic(li, share, CHINESE_TITLE, CHINESE_BODY);
  const hiring = await makeTopic(carol, jobs, 'Hiring: backend engineer (Ruby/TypeScript), remote, Shanghai time zone');
  await makeTopic(bob, ruby, 'Rails 8 upgrade notes', 'Solid Queue replaced Sidekiq for us. See @alice’s notes.');
  await makeTopic(carol, ruby, 'A_title_with_an_extremely_long_word_that_never_breaks_by_itself_at_all_anywhere');
  const spam = await makeTopic(bob, jobs, 'Cheap watches, best prices');
  await makeReply(alice, chinese, '写得很好，收藏了。');
  await makeReply(bob, hiring, 'Is the position open to people in Europe?');

  // Enough topics for the lists to page (20 a page).
  for (let i = 1; i <= 18; i++)
    await makeTopic(i % 2 ? bob : carol, meta, `Site feedback #${i}: ${i % 3 ? 'dark theme' : '夜间模式'}`);

  const people = [bob, li, carol, alice];
  for (const [i, body] of REPLIES.entries()) await makeReply(people[i % people.length]!, thread, body);
  await api().post(`/api/v3/topics/${thread}/action?type=excellent`).set(admin.auth).expect(200);
  let gone = 0;
  for (let i = 0; i < 14; i++) {
    const id = await makeReply(people[(i + 1) % people.length]!, thread, `Follow-up ${i + 1}: ${REPLIES[i % REPLIES.length]}`);
    if (i === 4) gone = id;
  }
  // A thread long enough for a second page (100 replies a page).
  for (let i = 0; i < 70; i++) await makeReply(people[i % people.length]!, thread, REPLIES[(i * 7) % REPLIES.length]!);
  await api().delete(`/api/v3/replies/${gone}`).set(admin.auth).expect(200);
  await api().post(`/api/v3/topics/${thread}/action?type=close`).set(admin.auth).expect(200);
  await api().post(`/api/v3/topics/${thread}/action?type=suggest`).set(admin.auth).expect(200);
  await api().post(`/api/v3/topics/${spam}/ban`).set(admin.auth).expect(200);

  await api().post('/api/v3/likes').set(bob.auth).send({ obj_type: 'topic', obj_id: thread }).expect(200);
  await api().post('/api/v3/likes').set(carol.auth).send({ obj_type: 'topic', obj_id: thread }).expect(200);
  for (const follower of [bob, li, carol]) await api().post('/api/v3/users/alice/follow').set(follower.auth).expect(200);
  await api().post(`/api/v3/topics/${thread}/favorite`).set(alice.auth).expect(200);
  return { ruby, thread, chinese };
}

describe('The forum’s reading pages, in a browser (contract §21a)', function () {
  this.timeout(300_000);
  const suite = browserSuite({ shots: SHOTS });
  let forum: Forum;

  beforeEach(async function () {
    this.timeout(120_000);
    forum = await fillForum();
  });

  /** Every template of the reading pages, by a name for its screenshot. */
  const templates = (): [string, string, number][] => [
    ['home', '/', 200],
    ['excellent', '/topics/excellent', 200],
    ['node', `/topics/node${forum.ruby}`, 200],
    ['topic', `/topics/${forum.thread}`, 200],
    ['topic-page2', `/topics/${forum.thread}?page=2`, 200],
    ['topic-chinese', `/topics/${forum.chinese}`, 200],
    ['nodes', '/nodes', 200],
    ['users', '/users', 200],
    ['profile', '/alice', 200],
    ['profile-replies', '/bob/replies', 200],
    ['profile-followers', '/alice/followers', 200],
    ['search', '/search?q=homeland', 200],
    ['not-found', '/nobody-here', 404],
  ];

  /** How the pages are met: a phone and a desktop screen, and a phone set to a dark theme. */
  const SCREENS = [
    { name: 'phone', viewport: PHONE, colorScheme: 'light', suffix: '' },
    { name: 'desktop', viewport: DESKTOP, colorScheme: 'light', suffix: '' },
    { name: 'phone, dark', viewport: PHONE, colorScheme: 'dark', suffix: '-dark' },
  ] as const;

  for (const lang of LANGS) {
    it(`passes axe-core with nothing serious on every page, on a phone and a desktop, in ${lang}; shots in ${SHOTS}`, async () => {
      const failures: string[] = [];
      for (const screen of SCREENS) {
        const options = {
          viewport: screen.viewport,
          isMobile: screen.viewport === PHONE,
          colorScheme: screen.colorScheme,
          locale: lang,
        };
        // As served (the CSP on): what a person sees, and what the page complains of.
        const seen = await suite.newContext(options);
        const page = await seen.newPage();
        const problems = watch(page, { requests: true });
        // axe is a script of its own, which the pages' CSP (rightly) refuses: it runs where the CSP is bypassed.
        const checked = await suite.newContext({ ...options, bypassCSP: true });
        const axePage = await checked.newPage();
        for (const [name, path, status] of templates()) {
          const url = `${suite.server.url}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`;
          const where = `${path} (${screen.name}, ${lang})`;
          const shot = `${SHOTS}/${name}-${screen.viewport.width}-${lang}${screen.suffix}.png`;
          await lookAtTemplate(page, axePage, { url, where, status: status, lang, shot }, failures);
        }
        // The 404 page's own answer is the one failed load a 404 page may report.
        failures.push(...problems.filter((problem) => !/status of 404/.test(problem)));
      }
      expect(failures.length, failures.join('\n')).to.equal(0);
    });
  }

  it('reads a topic and searches from the header with scripts off', async () => {
    const context = await suite.newContext({ javaScriptEnabled: false, isMobile: true });
    const page = await context.newPage();
    const problems = watch(page, { requests: true });
    await page.goto(`${suite.server.url}/topics/${forum.thread}?lang=en`);
    expect(await page.textContent('h1')).to.equal('How we moved our forum from homeland without breaking a single link');
    expect(await page.isVisible('article pre code')).to.equal(true);
    expect(await page.isVisible('#reply1')).to.equal(true);
    expect(await page.textContent('#reply1')).to.include('Thanks for writing this up');
    expect(await page.locator('ol.replies > li').count()).to.be.greaterThan(30);
    expect(await page.textContent('ol.replies')).to.include('This reply was deleted.');
    expect(await page.textContent('ol.replies')).to.include('root');
    // The header's search form, as a person uses it: type, press Enter.
    await page.fill('#site-search', 'homeland');
    await Promise.all([page.waitForURL(/\/search\?q=homeland/), page.press('#site-search', 'Enter')]);
    expect(await page.textContent('h1')).to.include('homeland');
    expect(await page.locator('ol.topics a.title').allTextContents()).to.include(
      'How we moved our forum from homeland without breaking a single link',
    );
    expect(problems).to.deep.equal([]);
  });

  it('shows the avatars and the images of posts (the CSP allows our own images, and others over https)', async () => {
    const context = await suite.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => problems.push(message.text()));
    for (const path of [`/topics/${forum.thread}`, '/users', '/alice']) {
      await page.goto(`${suite.server.url}${path}`);
      await page.waitForLoadState('networkidle');
      const broken = await page.$$eval('img', (images) =>
        images.filter((image) => !image.complete || image.naturalWidth === 0).map((image) => image.src),
      );
      expect(broken, path).to.deep.equal([]);
    }
    expect(problems).to.deep.equal([]);
  });

  it('asks for no script and no font when loading a topic page', async () => {
    const context = await suite.newContext({ locale: 'zh-CN' });
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (['script', 'font'].includes(request.resourceType())) asked.push(`${request.resourceType()} ${request.url()}`);
    });
    for (const id of [forum.thread, forum.chinese]) {
      await page.goto(`${suite.server.url}/topics/${id}`);
      await page.waitForLoadState('networkidle');
    }
    expect(asked).to.deep.equal([]);
  });
});
