import type { User } from '../../domain/users/user.js';
import type { UserRepository } from '../../domain/users/user-repository.js';

/**
 * The account a person named by typing its login or e-mail address (any case, spaces around ignored): sign-in,
 * a forgotten password, a re-sent mail. What could name no account (too long, control characters) is not looked up.
 */
export async function namedAccount(users: UserRepository, typed: string): Promise<User | null> {
  const name = typed.trim().toLowerCase();
  if (name === '' || name.length > 320 || /[\u0000-\u001f]/.test(name)) return null;
  return users.findByLoginOrEmail(name);
}
