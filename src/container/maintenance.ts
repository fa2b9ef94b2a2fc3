import { ContainerModule } from 'inversify';
import {
  CounterMaintenance,
  PurgeDeliveries,
  PurgeEvents,
  PurgeNotifications,
  Recount,
} from '../application/maintenance/maintenance.js';
import { DataSeeder, SeedDatabase } from '../application/maintenance/seed.js';
import { Clock, PasswordHasher, UnitOfWork } from '../application/ports.js';
import { WordSegmenter } from '../application/search/ports.js';
import { SqlCounterMaintenance } from '../adapters/persistence/maintenance/counter-maintenance.js';
import { SqlDataSeeder } from '../adapters/persistence/maintenance/seeder.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { provide, SqlRunner, useCaseBinder } from './bind.js';

/** Maintenance (forumctl): recounting, purging what has expired, seeding a database. */
export const maintenanceModule = new ContainerModule(({ bind }) => {
  provide(bind, CounterMaintenance, (sql: Sql, uow: UnitOfWork) => new SqlCounterMaintenance(sql, uow), [SqlRunner, UnitOfWork]);
  provide(bind, DataSeeder, (sql: Sql, uow: UnitOfWork) => new SqlDataSeeder(sql, uow), [SqlRunner, UnitOfWork]);

  const useCase = useCaseBinder(bind);
  useCase(Recount, [CounterMaintenance]);
  useCase(PurgeNotifications, [CounterMaintenance, Clock]);
  useCase(PurgeEvents, [CounterMaintenance, Clock]);
  useCase(PurgeDeliveries, [CounterMaintenance, Clock]);
  useCase(SeedDatabase, [DataSeeder, PasswordHasher, WordSegmenter]);
});
