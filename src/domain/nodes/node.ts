import { RuleViolated } from '../shared/errors.js';

/** The hidden node every banned topic is moved to; created by the first migration. */
export const NO_POINT_NODE_NAME = 'NoPoint';

export class Node {
  id!: number;
  name!: string;
  summary!: string;
  sort!: number;
  hidden!: boolean;
  /** The section it is listed under; null for none. */
  sectionId!: number | null;
  createdAt!: Date;
  updatedAt!: Date;

  static create(
    input: { name: string; summary?: string; sort?: number; hidden?: boolean; sectionId?: number | null },
    now: Date,
  ): Node {
    const name = input.name.trim();
    if (name === '') throw new RuleViolated("Validation failed: Name can't be blank");
    if (name.length > 100) throw new RuleViolated('Validation failed: Name is too long (maximum is 100 characters)');
    const node = new Node();
    Object.assign(node, {
      name,
      summary: input.summary?.trim() ?? '',
      sort: input.sort ?? 0,
      hidden: input.hidden ?? false,
      sectionId: input.sectionId ?? null,
      createdAt: now,
      updatedAt: now,
    });
    return node;
  }

  setHidden(hidden: boolean, now: Date): void {
    this.hidden = hidden;
    this.updatedAt = now;
  }

  /** Returns whether the section changed. */
  placeIn(sectionId: number | null, now: Date): boolean {
    if (this.sectionId === sectionId) return false;
    this.sectionId = sectionId;
    this.updatedAt = now;
    return true;
  }
}
