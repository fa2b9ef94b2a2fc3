import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks' signing secrets sealed at rest under the server's key (SecretBox), as sign-in providers' client secrets
 * are. `secret_sealed` tells a sealed secret from one in clear: rows written before, or by a process of the previous
 * release while both run, are clear (the default, no rewrite) and still sign; every server of this release seals
 * them as it starts, after migrating (SealWebhookSecrets). The previous release reads `secret` as it is: a try it
 * makes of a sealed webhook is signed with the sealed text, which a receiver that checks signatures refuses; the
 * retry, once a process of this release takes it, is signed right (docs/operations.md).
 *
 * Down loses data: it deletes the webhooks whose secret is sealed, with their deliveries, since the previous release
 * could only sign for them wrongly; they are created again after, with their secrets.
 */
export class Migration20261129090000_webhook_secrets_sealed extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table webhooks add column secret_sealed boolean not null default false;');
  }

  override async down(): Promise<void> {
    this.addSql('delete from webhooks where secret_sealed; alter table webhooks drop column secret_sealed;');
  }
}
