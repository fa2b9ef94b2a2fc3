import type { DomainEvent } from '../../domain/events.js';
import type { InTransactionConsumer } from '../../application/events.js';
import type { StagedRows } from './staged/staged-rows.js';

/**
 * Writes events to the `events` table in the transaction of the change: a rolled-back change leaves no event.
 * With them go the webhook deliveries they make (contract §13): sent for a committed change only, and never
 * lost after the commit. The rows wait for the end of the unit of work (staged-rows.ts).
 */
export class SqlOutbox implements InTransactionConsumer {
  constructor(private readonly staged: StagedRows) {}

  handle(event: DomainEvent): Promise<void> {
    return this.staged.events([event]);
  }
}
