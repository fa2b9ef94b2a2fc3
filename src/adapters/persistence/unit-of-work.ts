import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../../application/ports.js';

/**
 * One database transaction per write use case. Inside it, every repository's `em` resolves to the transaction's
 * fork (MikroORM's transaction context), raw SQL included; the fork is flushed when the work returns.
 */
export class MikroOrmUnitOfWork implements UnitOfWork {
  constructor(private readonly em: EntityManager) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.em.transactional(() => work());
  }
}
