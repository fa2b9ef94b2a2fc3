import { RuleViolated } from '../../domain/shared/errors.js';
import type { DomainEvents } from '../events.js';
import type { Role } from '../../domain/users/role.js';
import { User, accountProblems } from '../../domain/users/user.js';
import { type CommonPasswords, passwordProblems } from '../../domain/users/password.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import type { Clock, PasswordHasher, UnitOfWork } from '../ports.js';

export interface CreateUserInput {
  login: string;
  email: string;
  password: string;
  name?: string;
  role?: Role;
}

/**
 * Registers a user (an operator's act through forumctl): active at once, the operator vouching for the address.
 * The password is held to the same rules as a sign-up's. Returns the new user's id.
 */
export class CreateUser {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly common: CommonPasswords,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Every problem of the input is said at once (contract §9: one line, every reason). */
  async execute(input: CreateUserInput): Promise<number> {
    const account = { login: input.login.trim(), email: input.email.trim() };
    const problems = [...accountProblems(input), ...passwordProblems(input.password, account, this.common)];
    if (problems.length > 0) throw new RuleViolated(`Validation failed: ${problems.join('; ')}`);
    const passwordHash = await this.hasher.hash(input.password);
    return this.uow.run(async () => {
      const user = User.register({ ...input, passwordHash, role: input.role ?? 'member' }, this.clock.now());
      const taken = await this.users.isTaken(user.login, user.email);
      if (taken.login) throw new RuleViolated('Validation failed: Login has already been taken');
      if (taken.email) throw new RuleViolated('Validation failed: Email has already been taken');
      await this.users.add(user);
      await this.events.record({ type: 'user.created', userId: user.id });
      return user.id;
    });
  }
}
