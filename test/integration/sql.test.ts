import { expect } from 'chai';
import { testEnv } from '../support/env.js';
import { connect } from '../../src/adapters/persistence/database/orm.js';

describe('Sql (the raw SQL runner of repositories and read models)', () => {
  it('leaves a ? in a string literal and the JSONB ? operators alone, outside a transaction', async () => {
    const { persistence } = testEnv();
    const row = await persistence.sql.one<{ literal: string; has: boolean; any: boolean; n: number }>(
      `select 'why?' as literal, '{"a":1}'::jsonb ? 'a' as has, '{"a":1}'::jsonb ?| array['b', 'a'] as any, $1::int as n`,
      [7],
    );
    expect(row).to.deep.equal({ literal: 'why?', has: true, any: true, n: 7 });
  });

  it('does the same inside a unit of work, on the transaction connection, with values bound', async () => {
    const { persistence, orm } = testEnv();
    const hostile = "it's ?; drop table users; --";
    const row = await orm.em.fork().transactional(async () => {
      await persistence.sql.all("insert into nodes (name, summary) values ($1, 'a?b')", [hostile]);
      // Seen from inside the transaction: the statement ran on its connection.
      return persistence.sql.one<{ name: string; summary: string; has: boolean }>(
        `select name, summary, '{"x":1}'::jsonb ?& array['x'] as has from nodes where name = $1`,
        [hostile],
      );
    });
    expect(row).to.deep.equal({ name: hostile, summary: 'a?b', has: true });
  });

  it('rolls its statements back with the unit of work they ran in', async () => {
    const { persistence, orm } = testEnv();
    const attempt = orm.em.fork().transactional(async () => {
      await persistence.sql.all("insert into nodes (name) values ('Doomed')");
      throw new Error('roll back');
    });
    await attempt.then(
      () => expect.fail('the transaction should have failed'),
      (error: Error) => expect(error.message).to.equal('roll back'),
    );
    expect(await persistence.sql.all("select 1 from nodes where name = 'Doomed'")).to.deep.equal([]);
  });

  it('plans each statement once per connection, even where a null value would make a plan for it look cheaper', async () => {
    // A pool of one connection: every statement on it, whose prepared statements the last one reads.
    const persistence = await connect(testEnv().config.databaseUrl!, { poolMax: 1 });
    const { sql } = persistence;
    // A signed-out caller's null: left to choose, PostgreSQL found a plan made for it cheaper and planned anew each time.
    const text = 'select t.id from topics t where t.user_id = $1 or $1 is null order by t.id limit 5';
    const plans = await (async () => {
      try {
        for (let i = 0; i < 8; i++) await sql.all(text, [null]);
        return await sql.one<{ generic: number; custom: number }>(
          'select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement = $1',
          [text],
        );
      } finally {
        await persistence.close();
      }
    })();
    expect(plans).to.deep.equal({ generic: 8, custom: 0 });
  });
});
