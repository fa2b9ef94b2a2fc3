import { InvalidInput } from '../../domain/shared/errors.js';
import type { PasswordHasher } from '../ports.js';

/** How much data `forumctl seed` generates. */
export interface SeedPlan {
  users: number;
  nodes: number;
  topics: number;
  replies: number;
  likes: number;
  notifications: number;
}

export const DEFAULT_SEED: SeedPlan = {
  users: 1_000,
  nodes: 20,
  topics: 100_000,
  replies: 1_000_000,
  likes: 500_000,
  notifications: 1_000_000,
};

export type SeedStep = keyof SeedPlan | 'counters';

/** Bulk generation of realistic data, set-based in the database (no row-by-row round trips). */
export interface DataSeeder {
  seed(plan: SeedPlan, passwordHash: string, onStep: (step: SeedStep, done: number, total: number) => void): Promise<void>;
}
export const DataSeeder = Symbol.for('DataSeeder');

/** Seeds a (benchmark or demo) database. Every seeded user has the same password, hashed once. */
export class SeedDatabase {
  constructor(
    private readonly seeder: DataSeeder,
    private readonly hasher: PasswordHasher,
  ) {}

  async execute(
    plan: SeedPlan,
    password: string,
    onStep: (step: SeedStep, done: number, total: number) => void = () => undefined,
  ): Promise<SeedPlan> {
    for (const [name, count] of Object.entries(plan)) {
      if (!Number.isInteger(count) || count < 0 || count > 50_000_000)
        throw new InvalidInput(name, `${name} must be a whole number from 0`);
    }
    if (plan.users < 1 && (plan.topics > 0 || plan.replies > 0)) throw new InvalidInput('users', 'topics and replies need users');
    if (plan.nodes < 1 && plan.topics > 0) throw new InvalidInput('nodes', 'topics need nodes');
    if (plan.topics < 1 && plan.replies > 0) throw new InvalidInput('topics', 'replies need topics');
    await this.seeder.seed(plan, await this.hasher.hash(password), onStep);
    return plan;
  }
}
