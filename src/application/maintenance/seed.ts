import { InvalidInput } from '../../domain/shared/errors.js';
import type { PasswordHasher } from '../ports.js';
import type { WordSegmenter } from '../search/ports.js';
import { SEED_SENTENCES, SEED_TITLES, SEED_TOPIC_TAIL } from './seed-text.js';

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

export type SeedStep = keyof SeedPlan | 'counters' | 'search';

/** A piece of seed text and its words as the search index takes them. */
export interface SeedText {
  text: string;
  words: string;
}

/** What seeded titles and bodies are made of. */
export interface SeedTexts {
  titles: SeedText[];
  sentences: SeedText[];
  /** Markdown every topic body ends with, its HTML, the text a reader sees of it, and its words. */
  topicTail: { markdown: string; html: string; text: string; words: string };
}

/** Bulk generation of realistic data, set-based in the database (no row-by-row round trips). */
export interface DataSeeder {
  seed(
    plan: SeedPlan,
    passwordHash: string,
    texts: SeedTexts,
    onStep: (step: SeedStep, done: number, total: number) => void,
  ): Promise<void>;
}
export const DataSeeder = Symbol.for('DataSeeder');

/** Seeds a (benchmark or demo) database. Every seeded user has the same password, hashed once. */
export class SeedDatabase {
  constructor(
    private readonly seeder: DataSeeder,
    private readonly hasher: PasswordHasher,
    private readonly segmenter: WordSegmenter,
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
    const words = (text: string) => ({ text, words: this.segmenter.forIndex(text) });
    const texts: SeedTexts = {
      titles: SEED_TITLES.map(words),
      sentences: SEED_SENTENCES.map(words),
      topicTail: { ...SEED_TOPIC_TAIL, words: this.segmenter.forIndex(SEED_TOPIC_TAIL.text) },
    };
    await this.seeder.seed(plan, await this.hasher.hash(password), texts, onStep);
    return plan;
  }
}
