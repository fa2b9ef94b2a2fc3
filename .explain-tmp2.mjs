const root = process.argv[2];
const { SqlReplyReading } = await import(`${root}/dist/src/adapters/persistence/posts/reply-reading.js`);
let captured;
const sql = { all: async (text, params) => { captured = { text, params }; throw new Error('x'); } };
try { await new SqlReplyReading(sql).read(123, { limit: 20, offset: 0 }, { accessDigest: process.argv[3], at: new Date() }, 20); } catch (e) { if (!captured) console.error(e); }
console.log(JSON.stringify(captured));
