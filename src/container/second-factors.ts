import { ContainerModule } from 'inversify';
import { CurrentPassword } from '../application/accounts/current-password.js';
import { DomainEvents } from '../application/events.js';
import { OpenWebSession } from '../application/oauth/web-sessions.js';
import { Clock, SecretBox, SecretGenerator, UnitOfWork } from '../application/ports.js';
import { CredentialThrottle } from '../application/oauth/credential-throttle.js';
import { AdminSecondFactorRule } from '../application/second-factors/admin-rule.js';
import { CheckSecondFactor } from '../application/second-factors/check-second-factor.js';
import {
  ConfirmTotpEnrolment,
  RegenerateRecoveryCodes,
  ShowSecondFactor,
  StartTotpEnrolment,
  TurnOffSecondFactor,
} from '../application/second-factors/enrolment.js';
import { AddPasskey, RemovePasskey, StartPasskeyRegistration } from '../application/second-factors/passkeys.js';
import {
  CeremonyChallengeStore,
  PasskeyCeremonies,
  PasskeyStore,
  PendingSignInStore,
  SecondFactorCodes,
  SecondFactorStore,
} from '../application/second-factors/ports.js';
import { ResetSecondFactor } from '../application/second-factors/reset.js';
import { BeginSignIn, FinishSignIn } from '../application/second-factors/sign-in-step.js';
import { UserRepository } from '../domain/users/user-repository.js';
import { SqlCeremonyChallengeStore } from '../adapters/persistence/accounts/passkey-challenge-store.js';
import { SqlPasskeyStore } from '../adapters/persistence/accounts/passkey-store.js';
import { SqlPendingSignInStore } from '../adapters/persistence/accounts/pending-sign-in-store.js';
import { SqlSecondFactorStore } from '../adapters/persistence/accounts/second-factor-store.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { SimpleWebAuthnCeremonies } from '../adapters/system/passkey-ceremonies.js';
import { OtpauthSecondFactorCodes } from '../adapters/system/second-factor-codes.js';
import type { Config } from '../config.js';
import { AppConfig, provide, SqlRunner, useCaseBinder } from './bind.js';

/** Second factors (contract §25): TOTP, passkeys and recovery codes, the sign-in step that asks for them, REQUIRE_2FA. */
export const secondFactorsModule = new ContainerModule(({ bind }) => {
  provide(bind, SecondFactorStore, (sql: Sql) => new SqlSecondFactorStore(sql), [SqlRunner]);
  provide(bind, PendingSignInStore, (sql: Sql) => new SqlPendingSignInStore(sql), [SqlRunner]);
  bind(SecondFactorCodes).toConstantValue(new OtpauthSecondFactorCodes());
  provide(bind, PasskeyStore, (sql: Sql) => new SqlPasskeyStore(sql), [SqlRunner]);
  provide(bind, CeremonyChallengeStore, (sql: Sql) => new SqlCeremonyChallengeStore(sql), [SqlRunner]);
  provide(bind, PasskeyCeremonies, (config: Config) => new SimpleWebAuthnCeremonies(config.publicUrl), [AppConfig]);
  provide(
    bind,
    AdminSecondFactorRule,
    (store: SecondFactorStore, config: Config) => new AdminSecondFactorRule(store, config.requireSecondFactor),
    [SecondFactorStore, AppConfig],
  );

  const useCase = useCaseBinder(bind);
  useCase(CheckSecondFactor, [
    SecondFactorStore,
    SecondFactorCodes,
    SecretBox,
    SecretGenerator,
    CredentialThrottle,
    Clock,
    PasskeyStore,
    PasskeyCeremonies,
  ]);
  useCase(ShowSecondFactor, [SecondFactorStore, PasskeyStore]);
  useCase(StartTotpEnrolment, [SecondFactorStore, SecondFactorCodes, SecretBox, Clock]);
  useCase(ConfirmTotpEnrolment, [SecondFactorStore, SecondFactorCodes, SecretBox, SecretGenerator, UnitOfWork, Clock]);
  useCase(TurnOffSecondFactor, [SecondFactorStore, UserRepository, CurrentPassword, CheckSecondFactor]);
  useCase(RegenerateRecoveryCodes, [
    SecondFactorStore,
    SecondFactorCodes,
    SecretGenerator,
    Clock,
    UserRepository,
    CurrentPassword,
    CheckSecondFactor,
  ]);
  useCase(ResetSecondFactor, [UserRepository, SecondFactorStore, DomainEvents, UnitOfWork]);
  useCase(BeginSignIn, [CheckSecondFactor, PendingSignInStore, OpenWebSession, SecretGenerator, Clock]);
  useCase(FinishSignIn, [
    PendingSignInStore,
    CheckSecondFactor,
    OpenWebSession,
    SecretGenerator,
    Clock,
    PasskeyStore,
    PasskeyCeremonies,
    CeremonyChallengeStore,
  ]);
  useCase(StartPasskeyRegistration, [PasskeyStore, PasskeyCeremonies, CeremonyChallengeStore, SecretGenerator, Clock]);
  useCase(AddPasskey, [
    PasskeyStore,
    PasskeyCeremonies,
    CeremonyChallengeStore,
    SecondFactorStore,
    SecondFactorCodes,
    SecretGenerator,
    UnitOfWork,
    Clock,
  ]);
  useCase(RemovePasskey, [PasskeyStore, SecondFactorStore, UnitOfWork, UserRepository, CurrentPassword, CheckSecondFactor]);
});
