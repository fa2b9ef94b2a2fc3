import { RuleViolated } from '../shared/errors.js';

export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;

/** Whether a password is among the most common ones (the list lives outside the domain). */
export interface CommonPasswords {
  includes(password: string): boolean;
}
export const CommonPasswords = Symbol.for('CommonPasswords');

/**
 * A new password, by NIST SP 800-63B §5.1.1.2 (contract §16b): 8 to 128 characters, no rules of composition;
 * refused when it is one of the 10,000 most common or the account's own login or e-mail, with a message that says
 * why and what would do.
 */
export function checkNewPassword(password: string, account: { login: string; email: string }, common: CommonPasswords): void {
  const [problem] = passwordProblems(password, account, common);
  if (problem) throw new RuleViolated(`Validation failed: ${problem}`);
}

/** What is wrong with a new password, first the worst (none: it will do); `checkNewPassword` says the first. */
export function passwordProblems(password: string, account: { login: string; email: string }, common: CommonPasswords): string[] {
  const length = [...password].length;
  if (length === 0) return ["Password can't be blank"];
  if (length < MIN_PASSWORD) return [`Password is too short (minimum is ${MIN_PASSWORD} characters)`];
  if (length > MAX_PASSWORD) return [`Password is too long (maximum is ${MAX_PASSWORD} characters)`];
  const lowered = password.toLowerCase();
  if (lowered === account.login.toLowerCase() || lowered === account.email.toLowerCase()) {
    return ['Password must not be your login or e-mail address'];
  }
  if (common.includes(password)) {
    return [
      'Password is one of the most common passwords, which are guessed first; ' +
        'a few unrelated words make a long one that is easy to remember',
    ];
  }
  return [];
}
