import { ContainerModule } from 'inversify';
import { AuditLog, AuditTrail, ListAudit } from '../application/audit/audit-log.js';
import { Clock } from '../application/ports.js';
import { SqlAuditLog } from '../adapters/persistence/maintenance/audit-log.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { provide, SqlRunner, useCaseBinder } from './bind.js';

/** The audit log (contract §14): written by a consumer of the domain events, read by administrators. */
export const auditModule = new ContainerModule(({ bind }) => {
  provide(bind, AuditLog, (sql: Sql) => new SqlAuditLog(sql), [SqlRunner]);
  provide(bind, AuditTrail, (log: AuditLog, clock: Clock) => new AuditTrail(log, clock), [AuditLog, Clock]);

  const useCase = useCaseBinder(bind);
  useCase(ListAudit, [AuditLog]);
});
