import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../database/sql.js';
import { Section } from '../../../domain/nodes/section.js';
import type { SectionRepository } from '../../../domain/nodes/section-repository.js';

export class MikroOrmSectionRepository implements SectionRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly sql: Sql,
  ) {}

  findById(id: number): Promise<Section | null> {
    return this.em.findOne(Section, { id });
  }

  async nameTaken(name: string): Promise<boolean> {
    const rows = await this.sql.all<{ taken: boolean }>(
      'select exists(select 1 from sections where lower(name) = lower($1)) as taken',
      [name],
    );
    return rows[0]!.taken;
  }

  async add(section: Section): Promise<void> {
    await this.em.persist(section).flush();
  }
}
