import type { AuditEntry, AuditLog, AuditQuery } from '../../application/audit/audit-log.js';
import type { AuditAction, AuditChanges, AuditTargetType, ModerationActed } from '../../domain/events.js';
import type { Sql } from './sql.js';
import { type Timestamp, toDate } from './timestamps.js';

interface EntryRow {
  id: string;
  action: AuditAction;
  target_type: AuditTargetType;
  target_id: string;
  changes: AuditChanges;
  reason: string | null;
  created_at: Timestamp;
  actor_id: number;
  actor_login: string;
  actor_name: string | null;
}

export class SqlAuditLog implements AuditLog {
  constructor(private readonly sql: Sql) {}

  async append(act: ModerationActed, at: Date): Promise<void> {
    await this.sql.count(
      `insert into audit_entries (action, actor_id, target_type, target_id, changes, reason, created_at)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [act.action, act.actorId, act.targetType, act.targetId, JSON.stringify(act.changes), act.reason, at],
    );
  }

  async list(query: AuditQuery): Promise<AuditEntry[]> {
    const rows = await this.sql.all<EntryRow>(
      `select e.id, e.action, e.target_type, e.target_id, e.changes, e.reason, e.created_at,
         u.id as actor_id, u.login as actor_login, u.name as actor_name
       from audit_entries e join users u on u.id = e.actor_id
       where ($1::text is null or e.action = $1)
         and ($2::text is null or lower(u.login) = lower($2))
         and ($3::text is null or e.target_type = $3)
         and ($4::bigint is null or e.target_id = $4)
       order by e.id desc
       limit $5 offset $6`,
      [
        query.action ?? null,
        query.actorLogin ?? null,
        query.targetType ?? null,
        query.targetId ?? null,
        query.limit,
        query.offset,
      ],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      action: row.action,
      actor: { id: row.actor_id, login: row.actor_login, name: row.actor_name },
      targetType: row.target_type,
      targetId: Number(row.target_id),
      changes: row.changes,
      reason: row.reason,
      createdAt: toDate(row.created_at),
    }));
  }
}
