/**
 * Text for seeded topics and replies: sentences in English and Chinese (and both at once), as a forum about
 * running software would have them. Seeded bodies are made of a few of these, so that search has real words
 * to find, in both languages, with common and rarer ones. No `<`, `>` or `&`: a body's HTML is its text in
 * a paragraph.
 */
/** The end of every seeded topic body: some Markdown, so that topics render lists, links and emphasis. */
export const SEED_TOPIC_TAIL = {
  markdown: `A seeded topic body with **some Markdown**, a [link](https://example.com) and a list:

- one
- two`,
  html: `<p>A seeded topic body with <strong>some Markdown</strong>, a <a href="https://example.com" rel="nofollow noopener">link</a> and a list:</p>
<ul>
<li>one</li>
<li>two</li>
</ul>`,
  text: 'A seeded topic body with some Markdown, a link and a list: one two',
};

export const SEED_TITLES = [
  'How do I tune PostgreSQL for a small server?',
  'Deploying a Node.js service behind nginx',
  'Which database should a new project use?',
  'Caching strategies for a busy forum',
  'Full text search without Elasticsearch',
  'Writing migrations that never lock a table',
  'Connection pooling explained',
  'Monitoring with Prometheus and Grafana',
  'Rust or Go for a command line tool?',
  'Background jobs and retries',
  'TypeScript types for API responses',
  'Docker images that start fast',
  '数据库连接池应该设置多大？',
  '如何优化慢查询',
  '分享一个部署脚本',
  '全文搜索的中文分词问题',
  '新手求助：服务器经常重启',
  '关于缓存失效的讨论',
  '用 PostgreSQL 做消息队列靠谱吗？',
  '前端和后端怎么分工',
  '记录一次线上故障的排查过程',
  '推荐几本学习编程的书',
  'Redis 和 PostgreSQL 的取舍',
  '大家用什么编辑器写代码？',
];

export const SEED_SENTENCES = [
  'The database server runs out of memory every night around midnight.',
  'I added an index on the created_at column and the query went from seconds to milliseconds.',
  'Have you tried EXPLAIN ANALYZE on that query?',
  'Our forum gets about a thousand replies a day, mostly in the evening.',
  'Caching the front page for a few seconds removed most of the load.',
  'The migration locked the table for ten minutes, so now we add columns without defaults first.',
  'Connection pooling matters more than the number of CPU cores.',
  'We deploy with Docker and roll back by switching the image tag.',
  'Prometheus scrapes the metrics endpoint every fifteen seconds.',
  'Background jobs retry with exponential backoff and give up after a day.',
  'TypeScript catches most mistakes before the tests even run.',
  'Full text search in PostgreSQL is good enough for most communities.',
  'Rust compiles slowly but the binaries are small and fast.',
  'Go makes concurrency easy, but error handling gets verbose.',
  'Thanks, that solved my problem!',
  'Could you share the configuration file you used?',
  'This happens only when the cache is cold after a restart.',
  'I wrote a small script that backs up the database to object storage.',
  'Benchmarks on a laptop tell you little about production.',
  'The new release fixed the memory leak in the websocket server.',
  'Logs should be structured, with a request id in every line.',
  'Replication lag was under a second even during peak traffic.',
  '我们的数据库每天晚上都会出现内存不足的问题。',
  '给这个字段加了索引之后，查询快了很多。',
  '可以先用 EXPLAIN ANALYZE 看一下执行计划。',
  '缓存首页之后，服务器的负载降低了一大半。',
  '连接池的大小不是越大越好，要看数据库的核数。',
  '中文全文搜索需要先分词，不然整句话会被当成一个词。',
  '我们用 Docker 部署，回滚只需要切换镜像版本。',
  '后台任务失败之后会自动重试，最多重试一天。',
  '感谢分享，这个方法解决了我的问题！',
  '能不能把你的配置文件贴出来看看？',
  '这个问题只有在重启之后缓存还没预热的时候才会出现。',
  '写了一个小脚本，每天把数据库备份到对象存储。',
  '在笔记本上跑的基准测试对生产环境参考意义不大。',
  '新版本修复了 websocket 服务的内存泄漏。',
  '日志最好是结构化的，每一行都带上请求编号。',
  '高峰期主从复制的延迟也在一秒以内。',
  '我觉得 PostgreSQL 的全文搜索对大多数社区已经够用了。',
  '服务器经常重启，查了半天发现是磁盘满了。',
  'Redis 适合做缓存，但是持久化的数据还是放在数据库里更放心。',
  '前后端分离之后，接口文档变得非常重要。',
  '这个 bug 在 Node.js 20 上可以复现，换成 22 就好了。',
  '推荐看看《高性能MySQL》，里面讲的很多原理对 PostgreSQL 也适用。',
];
