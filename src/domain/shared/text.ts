import { RuleViolated } from './errors.js';

/** A required text field of a record: present, not blank, not longer than `max` characters. */
export function requireText(value: string, field: string, max: number): string {
  if (value.trim() === '') throw new RuleViolated(`Validation failed: ${field} can't be blank`);
  if ([...value].length > max) throw new RuleViolated(`Validation failed: ${field} is too long (maximum is ${max} characters)`);
  return value;
}
