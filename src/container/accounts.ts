import { ContainerModule, type ServiceIdentifier } from 'inversify';
import { ACCOUNT_THROTTLE_LIMITS, AccountThrottle, CountedAccountThrottle } from '../application/accounts/account-throttle.js';
import { ThrottleCounts } from '../application/throttles/throttle-counts.js';
import { AccountTokenStore } from '../application/accounts/account-tokens.js';
import {
  ApproveAccount,
  ListPendingAccounts,
  MakeResetLink,
  PendingAccounts,
  RejectAccount,
  VerifyAccount,
} from '../application/accounts/approval.js';
import { CreateInvite, Invites, InviteStore, ListInvites, RevokeInvite } from '../application/accounts/invites.js';
import { MailLinks } from '../application/accounts/mail-links.js';
import { RequestPasswordReset, ResetPassword } from '../application/accounts/password-reset.js';
import { SignUp } from '../application/accounts/sign-up.js';
import { ProviderLinkStore } from '../application/providers/links.js';
import { CurrentPassword } from '../application/accounts/current-password.js';
import { CredentialThrottle } from '../application/oauth/credential-throttle.js';
import { MailPreferencesOf } from '../application/accounts/preferences.js';
import { ChangePassword, RequestEmailChange, UpdateProfile } from '../application/accounts/profile.js';
import {
  AccountExport,
  Anonymizer,
  AuthoredContent,
  DeleteAccount,
  DeleteOwnAccount,
  ExportAccount,
} from '../application/accounts/leaving.js';
import { DeviceRegistry } from '../application/devices/devices.js';
import { DeleteReply } from '../application/replies/delete-reply.js';
import { DeleteTopic } from '../application/topics/delete-topic.js';
import { SqlAccountExport } from '../adapters/persistence/read-models/account-export.js';
import { UserReadModel } from '../application/read-models.js';
import { ConfirmAddress, DescribeMailLink, ResendVerification } from '../application/accounts/verification.js';
import { DomainEvents } from '../application/events.js';
import { Clock, MailTokenKeys, PasswordHasher, SecretGenerator, UnitOfWork } from '../application/ports.js';
import { SecondFactorStore } from '../application/second-factors/ports.js';
import { SignOutEverywhere } from '../application/tokens/access-tokens.js';
import { CommonPasswords } from '../domain/users/password.js';
import { UserRepository } from '../domain/users/user-repository.js';
import { SqlAccountTokenStore } from '../adapters/persistence/accounts/account-token-store.js';
import { SqlInviteStore } from '../adapters/persistence/accounts/invite-store.js';
import { SqlPendingAccounts } from '../adapters/persistence/read-models/users.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { RankedCommonPasswords } from '../adapters/system/common-passwords.js';
import type { Config } from '../config.js';
import { AppConfig, provide, SqlRunner, useCaseBinder } from './bind.js';

type Last<T extends readonly unknown[]> = T extends readonly [...unknown[], infer L] ? L : never;

/** Accounts people own (contract §16b): joining, confirming an address, resetting a password, approvals, invites. */
export const accountsModule = new ContainerModule(({ bind }) => {
  bind(CommonPasswords).toConstantValue(new RankedCommonPasswords());
  provide(bind, AccountTokenStore, (sql: Sql) => new SqlAccountTokenStore(sql), [SqlRunner]);
  provide(bind, InviteStore, (sql: Sql) => new SqlInviteStore(sql), [SqlRunner]);
  provide(bind, PendingAccounts, (sql: Sql) => new SqlPendingAccounts(sql), [SqlRunner]);
  provide(
    bind,
    AccountThrottle,
    (counts: ThrottleCounts, clock: Clock) => new CountedAccountThrottle(counts, ACCOUNT_THROTTLE_LIMITS, clock),
    [ThrottleCounts, Clock],
  );

  const useCase = useCaseBinder(bind);
  useCase(MailLinks, [AccountTokenStore, MailTokenKeys, DomainEvents]);
  useCase(Invites, [InviteStore, SecretGenerator]);
  // The registration mode (from the environment) decides who joins, and whether a confirmed address waits for approval:
  // these take it as their last argument.
  const configured = <C extends new (...args: never[]) => unknown>(
    Class: C,
    deps: ServiceIdentifier[],
    setting: (config: Config) => Last<ConstructorParameters<C>>,
  ) =>
    provide(
      bind,
      Class as unknown as ServiceIdentifier<InstanceType<C>>,
      (...args: unknown[]) =>
        new Class(...([...args.slice(0, -1), setting(args.at(-1) as Config)] as never[])) as InstanceType<C>,
      [...deps, AppConfig],
    );
  const approvalRequired = (config: Config) => config.registration === 'approval';
  configured(
    SignUp,
    [UserRepository, Invites, MailLinks, PasswordHasher, CommonPasswords, AccountThrottle, DomainEvents, UnitOfWork, Clock],
    (config) => config.registration,
  );
  configured(ConfirmAddress, [UserRepository, MailLinks, DomainEvents, UnitOfWork, Clock], approvalRequired);
  configured(
    ResetPassword,
    [UserRepository, MailLinks, PasswordHasher, CommonPasswords, SignOutEverywhere, DomainEvents, UnitOfWork, Clock],
    approvalRequired,
  );
  useCase(DescribeMailLink, [UserRepository, MailLinks, Clock]);
  useCase(ResendVerification, [UserRepository, MailLinks, AccountThrottle, UnitOfWork, Clock]);
  useCase(RequestPasswordReset, [UserRepository, MailLinks, AccountThrottle, UnitOfWork, Clock]);
  useCase(ListPendingAccounts, [PendingAccounts]);
  useCase(ApproveAccount, [UserRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(RejectAccount, [UserRepository, DomainEvents, UnitOfWork]);
  useCase(VerifyAccount, [UserRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(MakeResetLink, [UserRepository, MailLinks, UnitOfWork, Clock]);
  useCase(CreateInvite, [InviteStore, SecretGenerator, DomainEvents, UnitOfWork, Clock]);
  useCase(ListInvites, [InviteStore]);
  useCase(RevokeInvite, [InviteStore, DomainEvents, UnitOfWork, Clock]);

  provide(bind, SqlAccountExport, (sql: Sql) => new SqlAccountExport(sql), [SqlRunner]);
  bind(AccountExport).toService(SqlAccountExport);
  bind(AuthoredContent).toService(SqlAccountExport);
  useCase(ExportAccount, [AccountExport]);
  useCase(Anonymizer, [SignOutEverywhere, DeviceRegistry, MailLinks, DomainEvents, Clock, ProviderLinkStore, SecondFactorStore]);
  useCase(CurrentPassword, [PasswordHasher, CredentialThrottle]);
  useCase(DeleteOwnAccount, [UserRepository, CurrentPassword, Anonymizer, UnitOfWork]);
  useCase(DeleteAccount, [UserRepository, Anonymizer, AuthoredContent, DeleteTopic, DeleteReply, DomainEvents, UnitOfWork]);
  useCase(UpdateProfile, [UserRepository, UnitOfWork, Clock]);
  useCase(MailPreferencesOf, [UserRepository, UserReadModel, UnitOfWork, Clock]);
  useCase(RequestEmailChange, [UserRepository, CurrentPassword, MailLinks, UnitOfWork, Clock]);
  useCase(ChangePassword, [
    UserRepository,
    CurrentPassword,
    PasswordHasher,
    CommonPasswords,
    SignOutEverywhere,
    SecretGenerator,
    DomainEvents,
    UnitOfWork,
    Clock,
  ]);
});
