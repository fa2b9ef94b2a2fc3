// Writes PREPARE + EXPLAIN EXECUTE for the read-counts statement, with its parameters.
const root = process.argv[2];
const { SqlTopicReadModel } = await import(`${root}/dist/src/adapters/persistence/read-models/topics.js`);
const captured = [];
const sql = { all: async (text, params) => { captured.push({ text, params }); return []; } };
const m = new SqlTopicReadModel(sql);
const caller = { actor: { id: Number(process.argv[3]), login: 'seed1', role: 'member' } };
const since = new Date(Date.now() - 14 * 86400e3);
await m.readCounts(caller, since).catch(() => {});
await m.list({ type: 'new', limit: 20, offset: 0, nodeId: null, newSince: since }, caller).catch(() => {});
const lit = (v) => v === null || v === undefined ? 'null' : v instanceof Date ? `'${v.toISOString()}'` : typeof v === 'string' ? `'${v}'` : String(v);
let out = '';
captured.forEach(({ text, params }, i) => {
  out += `prepare q${i} as ${text};\nexplain (analyze, costs off) execute q${i}(${params.map(lit).join(', ')});\n`;
});
(await import('node:fs')).writeFileSync('/tmp/prep.sql', out);
