const root = process.argv[2];
const { SqlTopicViews } = await import(`${root}/dist/src/adapters/persistence/posts/topic-views.js`);
let captured;
const sql = { all: async (text, params) => { captured = { text, params }; throw new Error('x'); } };
try { await new SqlTopicViews(sql).count(123, { accessDigest: process.argv[3], at: new Date() }); } catch {}
console.log(JSON.stringify(captured));
