import { Migration } from '@mikro-orm/migrations';

/**
 * Signing in with another provider (contract §25): the providers an administrator configured (an OpenID Connect
 * issuer, or GitHub's OAuth 2 endpoints), their client secret sealed under the server's key (SecretBox), and the
 * links of accounts to a provider's subject. A link names its provider by its short name, not by a key: the homeland
 * import brings links to `github` before anyone configures it, and they work once it is.
 */
export class Migration20261129070000_sign_in_providers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table sign_in_providers (
        id serial primary key,
        name text not null unique check (name ~ '^[a-z0-9][a-z0-9_-]{0,29}$'),
        kind text not null check (kind in ('oidc', 'github')),
        display_name text not null,
        issuer text,
        client_id text not null,
        client_secret_sealed text not null,
        authorize_url text,
        token_url text,
        api_url text,
        created_at timestamptz not null
      );`);
    this.addSql(`
      create table provider_links (
        id bigserial primary key,
        user_id integer not null references users (id) on delete cascade,
        provider text not null,
        subject text not null,
        created_at timestamptz not null,
        unique (provider, subject),
        unique (user_id, provider)
      );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table provider_links;');
    this.addSql('drop table sign_in_providers;');
  }
}
