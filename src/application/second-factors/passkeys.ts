import { z } from 'zod';
import { InvalidInput, NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { MAX_PASSKEYS, PASSKEY_CEREMONY_SECONDS, PASSKEY_NAME_MAX } from '../../domain/users/passkey.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import type { CurrentPassword } from '../accounts/current-password.js';
import { type Actor, requireUser } from '../actor.js';
import { readAll } from '../inputs.js';
import type { Clock, SecretGenerator, UnitOfWork } from '../ports.js';
import type { CheckSecondFactor } from './check-second-factor.js';
import { firstRecoveryCodes, SecondFactorProof, SecondFactorProofParams } from './enrolment.js';
import type { CeremonyChallengeStore, PasskeyCeremonies, PasskeyStore, SecondFactorCodes, SecondFactorStore } from './ports.js';

/**
 * A person's passkeys (contract §25), from the settings page: add one (a WebAuthn registration ceremony: options
 * with a challenge this browser's session holds, then the authenticator's answer, checked, and a name), and remove
 * one (with the password or a code, as turning two-factor sign-in off asks). A passkey is a second factor: the first
 * one set up brings the recovery codes, and removing the last second factor takes them away.
 */

/**
 * Who holds a ceremony's challenge: one browser's session (adding a passkey) or pending sign-in (using one), by a
 * digest of its secret that names the ceremony, so that neither secret is kept and neither answers the other.
 */
export const ceremonyHolder = (secrets: SecretGenerator, ceremony: 'register' | 'sign-in', browserSecret: string): string =>
  secrets.digest(`passkey-${ceremony}:${browserSecret}`);

/** The options of a registration ceremony for the signed-in person; refused at MAX_PASSKEYS. */
export class StartPasskeyRegistration {
  constructor(
    private readonly passkeys: PasskeyStore,
    private readonly ceremonies: PasskeyCeremonies,
    private readonly challenges: CeremonyChallengeStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  /** `session`: the browser session's secret, which holds the challenge. */
  async execute(actor: Actor, session: string): Promise<Record<string, unknown>> {
    const user = requireUser(actor);
    const existing = await this.passkeys.listOf(user.id);
    if (existing.length >= MAX_PASSKEYS) {
      throw new RuleViolated(`Validation failed: an account keeps at most ${MAX_PASSKEYS} passkeys; remove one first`);
    }
    const { options, challenge } = await this.ceremonies.registrationOptions(user, existing);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + PASSKEY_CEREMONY_SECONDS * 1000);
    await this.challenges.put(ceremonyHolder(this.secrets, 'register', session), user.id, challenge, expiresAt, now);
    return options;
  }
}

export const AddPasskeyParams = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(PASSKEY_NAME_MAX)
    .meta({ description: 'A name for the passkey, to tell it from others (“Phone”, “Laptop”)' }),
  credential: z
    .string()
    .min(1)
    .max(20_000)
    .meta({ description: 'The authenticator’s answer to the registration options, as JSON (the pages’ script)' }),
});

/** The authenticator's answer to a registration ceremony of this session, checked and kept under its name. */
export class AddPasskey {
  constructor(
    private readonly passkeys: PasskeyStore,
    private readonly ceremonies: PasskeyCeremonies,
    private readonly challenges: CeremonyChallengeStore,
    private readonly store: SecondFactorStore,
    private readonly codes: SecondFactorCodes,
    private readonly secrets: SecretGenerator,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** The recovery codes to show once when this was the account's first second factor; else null. */
  async execute(actor: Actor, session: string, raw: unknown): Promise<{ recoveryCodes: string[] | null }> {
    const user = requireUser(actor);
    const { name, credential } = readAll(AddPasskeyParams, raw);
    const now = this.clock.now();
    const challenge = await this.challenges.take(ceremonyHolder(this.secrets, 'register', session), user.id, now);
    if (challenge === null) throw new RuleViolated('Validation failed: this passkey took too long to add: add it again');
    const made = await this.ceremonies.verifyRegistration(parsedCredential(credential), challenge);
    if (!made) throw new InvalidInput('credential', 'The passkey could not be checked: add it again');
    return this.uow.run(async () => {
      if ((await this.passkeys.listOf(user.id)).length >= MAX_PASSKEYS) {
        throw new RuleViolated(`Validation failed: an account keeps at most ${MAX_PASSKEYS} passkeys; remove one first`);
      }
      if (!(await this.passkeys.add(user.id, name, made, now))) {
        throw new RuleViolated('Validation failed: this passkey is added already');
      }
      return { recoveryCodes: await firstRecoveryCodes(user.id, this.store, this.codes, this.secrets, now) };
    });
  }
}

/** An authenticator's answer as the browser sent it (JSON); what is not JSON is no answer (null, which no ceremony accepts). */
export function parsedCredential(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export const RemovePasskeyParams = SecondFactorProofParams.extend({
  passkey: z.coerce.number().int().positive().meta({ description: 'Which passkey (its id on the settings page)' }),
});

/** Removes one of the person's passkeys, with the password or a code; the last second factor takes the recovery codes along. */
export class RemovePasskey {
  private readonly proof: SecondFactorProof;

  constructor(
    private readonly passkeys: PasskeyStore,
    private readonly store: SecondFactorStore,
    private readonly uow: UnitOfWork,
    users: UserRepository,
    current: CurrentPassword,
    check: CheckSecondFactor,
  ) {
    this.proof = new SecondFactorProof(users, current, check);
  }

  async execute(actor: Actor, raw: unknown, context: { address: string }): Promise<void> {
    const user = requireUser(actor);
    const { passkey } = readAll(RemovePasskeyParams, raw);
    if (!(await this.passkeys.listOf(user.id)).some((kept) => kept.id === passkey)) throw new NotFound(`passkey ${passkey}`);
    await this.proof.demand(user.id, raw, context.address);
    await this.uow.run(async () => {
      if (!(await this.passkeys.remove(user.id, passkey))) throw new NotFound(`passkey ${passkey}`);
      // No second factor left: the recovery codes go too (a later first one brings new ones).
      if (!(await this.store.isOn(user.id))) await this.store.removeAll(user.id);
    });
  }
}
