import { RuleViolated } from '../shared/errors.js';

/** A heading that groups nodes (homeland's sections, contract §16a). A node belongs to at most one. */
export class Section {
  id!: number;
  name!: string;
  sort!: number;
  createdAt!: Date;
  updatedAt!: Date;

  static create(input: { name: string; sort?: number }, now: Date): Section {
    const name = input.name.trim();
    if (name === '') throw new RuleViolated("Validation failed: Name can't be blank");
    if (name.length > 100) throw new RuleViolated('Validation failed: Name is too long (maximum is 100 characters)');
    const section = new Section();
    Object.assign(section, { name, sort: input.sort ?? 0, createdAt: now, updatedAt: now });
    return section;
  }
}
