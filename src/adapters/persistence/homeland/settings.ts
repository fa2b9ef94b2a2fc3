import type pg from 'pg';

/** What the import takes of homeland's settings (docs/import-homeland.md, settings). */
export interface HomelandSettings {
  adminEmails: string[];
  hiddenNodeIds: number[];
  locale: 'en' | 'zh-CN';
}

/**
 * rails-settings-cached keeps each saved setting as YAML (`--- …`): an array (`- a@x`), a block (`|-`), or a string
 * that homeland splits on whitespace and commas. The import needs only e-mail addresses, node ids and a locale out of
 * them, so it picks those out of the text rather than reading YAML in full.
 */
export async function settingsOf(target: pg.ClientBase): Promise<HomelandSettings> {
  const { rows } = await target.query<{ var: string; value: string | null }>('select var, value from stage_settings');
  const value = (name: string) => (rows.find((row) => row.var === name)?.value ?? '').replace(/^---[ \t]*(\|-?|>-?)?/, '');
  return {
    adminEmails: (value('admin_emails').match(/[^\s,'"[\]]+@[^\s,'"[\]]+/g) ?? []).map((email) => email.toLowerCase()),
    hiddenNodeIds: (value('node_ids_hide_in_topics_index').match(/\d+/g) ?? []).map(Number),
    locale: /zh-CN/i.test(value('default_locale')) ? 'zh-CN' : 'en',
  };
}
