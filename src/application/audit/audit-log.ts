import { z } from 'zod';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  type AuditAction,
  type AuditChanges,
  type AuditTargetType,
  type DomainEvent,
  type ModerationActed,
} from '../../domain/events.js';
import { type Actor, requireAdmin } from '../actor.js';
import type { InTransactionConsumer } from '../events.js';
import { Id, ListLimit, Offset, maybe, oneOf, readAll, Text } from '../inputs.js';
import type { Clock } from '../ports.js';
import type { UserView } from '../read-models.js';

/** One record of the audit log (contract §14). */
export interface AuditEntry {
  id: number;
  action: AuditAction;
  actor: UserView;
  targetType: AuditTargetType;
  targetId: number;
  changes: AuditChanges;
  reason: string | null;
  createdAt: Date;
}

export interface AuditQuery {
  action?: AuditAction;
  actorLogin?: string;
  targetType?: AuditTargetType;
  targetId?: number;
  offset: number;
  limit: number;
}

/** Appends and reads; there is deliberately no way to change or remove an entry (the table refuses it too). */
export interface AuditLog {
  append(act: ModerationActed, at: Date): Promise<void>;
  /** Newest first. */
  list(query: AuditQuery): Promise<AuditEntry[]>;
}
export const AuditLog = Symbol.for('AuditLog');

/** Writes each moderation act to the audit log in the transaction of the act: no act without its record. */
export class AuditTrail implements InTransactionConsumer {
  constructor(
    private readonly log: AuditLog,
    private readonly clock: Clock,
  ) {}

  async handle(event: DomainEvent): Promise<void> {
    if (event.type === 'moderation.acted') await this.log.append(event, this.clock.now());
  }
}

const TargetType = z.preprocess(
  (value) =>
    typeof value === 'string' ? (AUDIT_TARGET_TYPES.find((type) => type.toLowerCase() === value.toLowerCase()) ?? value) : value,
  z.enum(AUDIT_TARGET_TYPES, { error: `must be one of ${AUDIT_TARGET_TYPES.join(', ')}` }),
);

/** The filters of `GET /admin/audit` and `forumctl audit list`, as both receive them. */
export const AuditFilters = z.object({
  action: maybe(oneOf(AUDIT_ACTIONS)),
  actor: maybe(Text),
  target_type: maybe(TargetType),
  target_id: maybe(Id),
  offset: Offset,
  limit: ListLimit,
});

/** Contract §14: administrators read the log, everyone else is refused. */
export class ListAudit {
  constructor(private readonly log: AuditLog) {}

  async execute(actor: Actor, filters: Record<string, unknown>): Promise<AuditEntry[]> {
    requireAdmin(actor);
    const read = readAll(AuditFilters, filters);
    return this.log.list({
      ...(read.action ? { action: read.action } : {}),
      ...(read.actor ? { actorLogin: read.actor } : {}),
      ...(read.target_type ? { targetType: read.target_type } : {}),
      ...(read.target_id ? { targetId: read.target_id } : {}),
      offset: read.offset,
      limit: read.limit,
    });
  }
}
