import { ContainerModule } from 'inversify';
import { Invites } from '../application/accounts/invites.js';
import { DomainEvents } from '../application/events.js';
import { Clock, SecretBox, UnitOfWork } from '../application/ports.js';
import { ListProviderLinks, ProviderLinkStore, UnlinkProvider } from '../application/providers/links.js';
import {
  BeginProviderSignIn,
  ChooseProviderLogin,
  FinishProviderSignIn,
  ProviderProtocol,
} from '../application/providers/provider-sign-in.js';
import { AddProvider, ListProviders, ProviderStore, RemoveProvider } from '../application/providers/providers.js';
import { UserRepository } from '../domain/users/user-repository.js';
import { OpenIdProviderProtocol } from '../adapters/identity/provider-protocol.js';
import { SqlProviderLinkStore, SqlProviderStore } from '../adapters/persistence/accounts/provider-stores.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import type { Config } from '../config.js';
import { AppConfig, provide, SqlRunner, useCaseBinder } from './bind.js';

/**
 * Signing in with another provider (contract §25): the providers and links in the database, the protocols through
 * openid-client (one per process: it caches discovery), and the use cases of forumctl, the pages and settings.
 */
export const providersModule = new ContainerModule(({ bind }) => {
  provide(bind, ProviderStore, (sql: Sql) => new SqlProviderStore(sql), [SqlRunner]);
  provide(bind, ProviderLinkStore, (sql: Sql) => new SqlProviderLinkStore(sql), [SqlRunner]);
  bind(ProviderProtocol).toConstantValue(new OpenIdProviderProtocol());

  const useCase = useCaseBinder(bind);
  useCase(AddProvider, [ProviderStore, SecretBox, DomainEvents, UnitOfWork, Clock]);
  useCase(ListProviders, [ProviderStore]);
  useCase(RemoveProvider, [ProviderStore, DomainEvents, UnitOfWork]);
  useCase(BeginProviderSignIn, [ProviderStore, SecretBox, ProviderProtocol]);
  useCase(ListProviderLinks, [ProviderLinkStore, ProviderStore, UserRepository]);
  useCase(UnlinkProvider, [ProviderLinkStore, UserRepository, UnitOfWork]);
  // REGISTRATION decides what a first sign-in may make (contract §16b's rules).
  const deps = [UserRepository, ProviderLinkStore, Invites, SecretBox, DomainEvents, UnitOfWork, Clock, AppConfig];
  provide(
    bind,
    FinishProviderSignIn,
    (providers: ProviderStore, protocol: ProviderProtocol, ...rest: unknown[]) => {
      const [users, links, invites, box, events, uow, clock, config] = rest as [
        UserRepository,
        ProviderLinkStore,
        Invites,
        SecretBox,
        DomainEvents,
        UnitOfWork,
        Clock,
        Config,
      ];
      return new FinishProviderSignIn(providers, protocol, users, links, invites, box, events, uow, clock, config.registration);
    },
    [ProviderStore, ProviderProtocol, ...deps],
  );
  provide(
    bind,
    ChooseProviderLogin,
    (
      users: UserRepository,
      links: ProviderLinkStore,
      invites: Invites,
      box: SecretBox,
      events: DomainEvents,
      uow: UnitOfWork,
      clock: Clock,
      config: Config,
    ) => new ChooseProviderLogin(users, links, invites, box, events, uow, clock, config.registration),
    deps,
  );
});
