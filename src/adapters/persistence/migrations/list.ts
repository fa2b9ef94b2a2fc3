/**
 * Every migration, in the order they run: listed, not discovered (no glob at run time, and the build output is all
 * that is needed). The classes are imported only where migrations run (`migrationClasses`): a process whose schema is
 * up to date never loads them, nor MikroORM's migrator under them.
 */
export const MIGRATIONS: readonly { name: string }[] = [
  'Migration20261121000000_initial',
  'Migration20261122000000_oauth',
  'Migration20261122010000_maintenance',
  'Migration20261123000000_token_families',
  'Migration20261123010000_devices_activity',
  'Migration20261124000000_authorization_code',
  'Migration20261124010000_search',
  'Migration20261124020000_search_walks',
  'Migration20261124030000_events',
  'Migration20261124040000_webhooks',
  'Migration20261124050000_audit',
  'Migration20261124060000_rate_limits',
  'Migration20261124070000_unread_counts',
  'Migration20261124080000_search_functions',
  'Migration20261125000000_search_text',
  'Migration20261126000000_search_functions_module',
  'Migration20261126010000_notification_events',
  'Migration20261126020000_notifications_by_reply',
  'Migration20261126030000_sections_pins_public_email',
  'Migration20261126040000_accounts',
  'Migration20261126050000_mail_preferences',
  'Migration20261126060000_notification_mail',
  'Migration20261126070000_digests',
  'Migration20261126080000_inbound_mail',
  'Migration20261128000000_review',
  'Migration20261128010000_uploads',
  'Migration20261128020000_imports',
  'Migration20261128030000_effects_in_code',
  'Migration20261128040000_left_accounts',
  'Migration20261128050000_throttle_counts',
  'Migration20261128060000_section_ids',
  'Migration20261129000000_topics_by_creation',
  'Migration20261129010000_read_state',
  'Migration20261129020000_read_horizons',
  'Migration20261129030000_groups_and_node_access',
  'Migration20261129040000_conversations',
  'Migration20261129050000_personal_tokens',
  'Migration20261129060000_second_factors',
  'Migration20261129070000_sign_in_providers',
  'Migration20261129080000_passkeys',
  'Migration20261129090000_webhook_secrets_sealed',
  'Migration20261130010000_member_group_ids',
].map((name) => ({ name }));

/** The migrations with their classes, for MikroORM's migrator. */
export async function migrationClasses(): Promise<{ name: string; class: new (...args: never[]) => object }[]> {
  return Promise.all(
    MIGRATIONS.map(async ({ name }) => {
      const module = (await import(`./${name}.js`)) as Record<string, new (...args: never[]) => object>;
      return { name, class: module[name]! };
    }),
  );
}
