import { InvalidInput } from '../domain/shared/errors.js';

/**
 * Request parameters as they arrive (from HTTP or the CLI), checked inside the use case so that the checks run
 * in the contract's order (authentication, record, then parameters and permission as each endpoint says).
 * Absent is a parameter error; present but blank is left to the record's validation: the contract tells them apart.
 */
export type RawParam = unknown;

const MAX_ID = 2_147_483_647;

function missing(parameter: string): InvalidInput {
  return new InvalidInput(parameter, `${parameter} is missing`);
}

export function requiredText(value: RawParam, parameter: string): string {
  if (value === undefined || value === null) throw missing(parameter);
  // PostgreSQL text cannot hold NUL; it is never part of real prose either.
  if (typeof value === 'string' && value.includes('\u0000'))
    throw new InvalidInput(parameter, `${parameter} must not contain NUL characters`);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new InvalidInput(parameter, `${parameter} must be a string`);
}

export function requiredId(value: RawParam, parameter: string): number {
  if (value === undefined || value === null || value === '') throw missing(parameter);
  const id = typeof value === 'string' && /^\s*\d{1,10}\s*$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > MAX_ID) {
    throw new InvalidInput(parameter, `${parameter} must be a positive id`);
  }
  return id;
}
