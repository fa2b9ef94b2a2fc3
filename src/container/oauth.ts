import { ContainerModule } from 'inversify';
import { DomainEvents } from '../application/events.js';
import { AuthorizationCodeStore } from '../application/oauth/authorization-codes.js';
import { ApproveAuthorization, CheckAuthorizationRequest, RedeemAuthorizationCode } from '../application/oauth/authorization.js';
import { AuthenticateClient, ClientStore, CreateApp, ListApps } from '../application/oauth/clients.js';
import { CountedCredentialThrottle, CredentialThrottle } from '../application/oauth/credential-throttle.js';
import { ThrottleCounts } from '../application/throttles/throttle-counts.js';
import { SqlThrottleCounts } from '../adapters/persistence/accounts/throttle-counts.js';
import { PasswordLogin } from '../application/oauth/password-login.js';
import { OpenWebSession, ResolveWebSession, SignOut, WebSessionStore } from '../application/oauth/web-sessions.js';
import { Presence } from '../application/accounts/presence.js';
import { AdminSecondFactorRule } from '../application/second-factors/admin-rule.js';
import { CheckSecondFactor } from '../application/second-factors/check-second-factor.js';
import { PendingSignInStore, SecondFactorStore } from '../application/second-factors/ports.js';
import { Clock, PasswordHasher, SecretGenerator, UnitOfWork } from '../application/ports.js';
import {
  AccessTokenStore,
  Authenticate,
  DescribeToken,
  IssueToken,
  ListTokens,
  LookupRefreshToken,
  PurgeTokens,
  RevokeAllTokens,
  SignOutEverywhere,
  RevokeToken,
} from '../application/tokens/access-tokens.js';
import {
  CreatePersonalToken,
  ListPersonalTokens,
  PersonalTokenKeys,
  PersonalTokenStore,
  PersonalTokenUse,
  RevokePersonalToken,
} from '../application/tokens/personal-tokens.js';
import { SqlPersonalTokenStore } from '../adapters/persistence/accounts/personal-token-store.js';
import { SqlPersonalTokenUse } from '../adapters/persistence/accounts/personal-token-use.js';
import { UserRepository } from '../domain/users/user-repository.js';
import { SqlClientStore } from '../adapters/persistence/accounts/oauth-stores.js';
import { SqlPresence } from '../adapters/persistence/accounts/presence.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import {
  SqlAccessTokenStore,
  SqlAuthorizationCodeStore,
  SqlWebSessionStore,
} from '../adapters/persistence/accounts/token-stores.js';
import type { Config } from '../config.js';
import { AppConfig, provide, SqlRunner, useCaseBinder } from './bind.js';

/** Tokens, applications, personal tokens and signing in (contract §10, §25): their stores and use cases. */
export const oauthModule = new ContainerModule(({ bind }) => {
  provide(bind, AccessTokenStore, (sql: Sql) => new SqlAccessTokenStore(sql), [SqlRunner]);
  provide(bind, AuthorizationCodeStore, (sql: Sql) => new SqlAuthorizationCodeStore(sql), [SqlRunner]);
  provide(bind, WebSessionStore, (sql: Sql) => new SqlWebSessionStore(sql), [SqlRunner]);
  provide(bind, ClientStore, (sql: Sql) => new SqlClientStore(sql), [SqlRunner]);
  // One per process: its memo is what keeps authenticated requests from writing (presence.ts).
  provide(bind, Presence, (sql: Sql) => new SqlPresence(sql), [SqlRunner]);
  provide(bind, PersonalTokenStore, (sql: Sql) => new SqlPersonalTokenStore(sql), [SqlRunner]);
  // One per process, as Presence: its memo keeps "last used" from writing per request.
  provide(bind, PersonalTokenUse, (sql: Sql) => new SqlPersonalTokenUse(sql), [SqlRunner]);
  provide(bind, ThrottleCounts, (sql: Sql) => new SqlThrottleCounts(sql), [SqlRunner]);
  provide(
    bind,
    CredentialThrottle,
    (counts: ThrottleCounts, config: Config, clock: Clock) => new CountedCredentialThrottle(counts, config.loginThrottle, clock),
    [ThrottleCounts, AppConfig, Clock],
  );

  const useCase = useCaseBinder(bind);
  useCase(Authenticate, [
    AccessTokenStore,
    SecretGenerator,
    Clock,
    Presence,
    PersonalTokenKeys,
    PersonalTokenUse,
    AdminSecondFactorRule,
  ]);
  provide(
    bind,
    IssueToken,
    (store: AccessTokenStore, secrets: SecretGenerator, clock: Clock, config: Config) =>
      new IssueToken(store, secrets, clock, {
        accessSeconds: config.tokenLifetimeSeconds,
        refreshSeconds: config.refreshTokenLifetimeSeconds,
      }),
    [AccessTokenStore, SecretGenerator, Clock, AppConfig],
  );
  useCase(RevokeToken, [AccessTokenStore, SecretGenerator, DomainEvents, UnitOfWork, Clock]);
  useCase(LookupRefreshToken, [AccessTokenStore, SecretGenerator, Clock, Presence]);
  useCase(PurgeTokens, [AccessTokenStore, AuthorizationCodeStore, WebSessionStore, PendingSignInStore, Clock]);
  useCase(DescribeToken, [AccessTokenStore, SecretGenerator, Clock]);
  useCase(ListTokens, [AccessTokenStore, UserRepository, Clock]);
  useCase(SignOutEverywhere, [AccessTokenStore, WebSessionStore, PendingSignInStore, Clock]);
  useCase(RevokeAllTokens, [SignOutEverywhere, UserRepository, DomainEvents, UnitOfWork]);
  useCase(PasswordLogin, [UserRepository, PasswordHasher, CredentialThrottle, Presence, UnitOfWork, Clock, CheckSecondFactor]);
  useCase(CheckAuthorizationRequest, [ClientStore]);
  useCase(ApproveAuthorization, [AuthorizationCodeStore, SecretGenerator, Clock]);
  useCase(RedeemAuthorizationCode, [AuthorizationCodeStore, AccessTokenStore, SecretGenerator, Clock, Presence]);
  useCase(ResolveWebSession, [WebSessionStore, SecretGenerator, Clock, Presence, AdminSecondFactorRule]);
  useCase(SignOut, [WebSessionStore, SecretGenerator]);
  useCase(OpenWebSession, [UserRepository, WebSessionStore, SecretGenerator, Clock, Presence, SecondFactorStore]);
  useCase(AuthenticateClient, [ClientStore, SecretGenerator, CredentialThrottle]);
  useCase(CreateApp, [ClientStore, SecretGenerator, DomainEvents, UnitOfWork, Clock]);
  useCase(ListApps, [ClientStore]);
  useCase(CreatePersonalToken, [PersonalTokenStore, PersonalTokenKeys, SecretGenerator, UnitOfWork, Clock]);
  useCase(ListPersonalTokens, [PersonalTokenStore, Clock]);
  useCase(RevokePersonalToken, [PersonalTokenStore, Clock]);
});
