import { expect } from 'chai';
import { api, makeNode, makeTopic, makeUser, topicRow, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

/**
 * Issue 31, item 2: a `node_id` that is a whole number naming no node, 0 and negative numbers included, is an
 * unknown node wherever a node is looked up (contract §6), as a positive unknown id is; only a value that is not
 * a whole number is a parameter error.
 */
describe('node ids that name no node (0 and negative)', () => {
  let alice: TestUser;
  let general: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    general = await makeNode('General');
  });

  for (const id of ['-1', '0']) {
    describe(`node_id ${id}`, () => {
      it('GET /topics?node_id= answers 404 ResourceNotFound, as for 9999', async () => {
        await makeTopic(alice, general);
        await api().get(`/api/v3/topics?node_id=${id}`).expect(404, { error: 'ResourceNotFound' });
        await api().get(`/api/v3/topics?node_id=${id}`).set(alice.auth).expect(404, { error: 'ResourceNotFound' });
      });

      it('GET /nodes/:id answers 404 ResourceNotFound', async () => {
        await api().get(`/api/v3/nodes/${id}`).expect(404, { error: 'ResourceNotFound' });
      });

      it('POST /nodes/:id/block and /unblock answer 404 ResourceNotFound (401 first without a token)', async () => {
        await api().post(`/api/v3/nodes/${id}/block`).set(alice.auth).expect(404, { error: 'ResourceNotFound' });
        await api().post(`/api/v3/nodes/${id}/unblock`).set(alice.auth).expect(404, { error: 'ResourceNotFound' });
        await api().post(`/api/v3/nodes/${id}/block`).expect(401);
        expect(await testEnv().sql('select * from node_blocks')).to.deep.equal([]);
      });

      it('POST /topics answers 404 as for any unknown node (9999 too: contract §6), saving nothing', async () => {
        for (const nodeId of [id, Number(id)]) {
          await api()
            .post('/api/v3/topics')
            .set(alice.auth)
            .send({ title: 't', body: 'b', node_id: nodeId })
            .expect(404, { error: 'ResourceNotFound' });
        }
        const known = await api().post('/api/v3/topics').set(alice.auth).send({ title: 't', body: 'b', node_id: 9999 });
        expect(known.status).to.equal(404);
        expect(await testEnv().sql('select id from topics')).to.deep.equal([]);
      });

      it('POST /topics/:id answers 404 as for any unknown node, changing nothing', async () => {
        const topic = await makeTopic(alice, general, 'Old', 'old body');
        await api()
          .post(`/api/v3/topics/${topic}`)
          .set(alice.auth)
          .send({ title: 'New', body: 'new', node_id: Number(id) })
          .expect(404, { error: 'ResourceNotFound' });
        expect(await topicRow(topic)).to.include({ title: 'Old', node_id: general });
      });
    });
  }

  it('still answers 400 ParameterInvalid for a node_id that is not a whole number', async () => {
    for (const bad of ['abc', '1.5', '-']) {
      const list = await api().get(`/api/v3/topics?node_id=${bad}`).expect(400);
      expect(list.body.error).to.equal('ParameterInvalid');
      expect(list.body.message).to.match(/node_id/);
      const create = await api().post('/api/v3/topics').set(alice.auth).send({ title: 't', body: 'b', node_id: bad }).expect(400);
      expect(create.body.error).to.equal('ParameterInvalid');
    }
  });
});
