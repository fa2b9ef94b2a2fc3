/**
 * The one statement that ends a unit of work (staged-rows.ts): built from the parts its writers add, in the lock
 * order of `WRITERS` (writers.ts). A part is a CTE; bound values are numbered as they are added (`$n::type`).
 *
 * PostgreSQL runs data-modifying CTEs in an order of its own unless one reads another. The lock order is kept by
 * reading: each step that locks rows names the step before it (`after`), in one expression evaluated left to right
 * before it reads a row (`(select count(*) from previous) + (select count(*) from locked) >= 0`), so a step that has
 * nothing to lock does not cut the chain.
 */
export class Statement {
  private readonly values: unknown[] = [];
  private readonly parts: { name: string; text: string }[] = [];
  private readonly reads: string[] = [];
  private readonly results = new Map<string, string>();
  private previous: string | null = null;

  /** A bound value: `$n::type` in the text. */
  param(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }

  /** A column of `rows` as one bound array. */
  column<T>(rows: readonly T[], pick: (row: T) => unknown, type: string): string {
    return this.param(rows.map(pick), type);
  }

  cte(name: string, text: string): void {
    this.parts.push({ name, text });
  }

  has(name: string): boolean {
    return this.parts.some((part) => part.name === name);
  }

  /** The condition that holds a step back until the last locking step (and `steps`) ran. */
  after(...steps: (string | null)[]): string {
    const named = [this.previous, ...steps].filter((step): step is string => step !== null);
    return named.length === 0 ? 'true' : `${named.map((step) => `(select count(*) from ${step})`).join(' + ')} >= 0`;
  }

  /** `name` took its locks: the next locking step comes after it. */
  locked(name: string): void {
    this.previous = name;
  }

  /** The last locking step, if any. */
  get lastLocked(): string | null {
    return this.previous;
  }

  /** A select CTE (queueing jobs) runs only when read: the statement reads it. */
  mustRead(name: string): void {
    this.reads.push(`(select count(*) from ${name})`);
  }

  /** A value the statement returns (`reply_ids`). */
  result(name: string, expression: string): void {
    this.results.set(name, expression);
  }

  build(): { text: string; values: unknown[] } | null {
    if (this.parts.length === 0) return null;
    const ctes = this.parts.map((part) => `${part.name} as (${part.text})`).join(',\n  ');
    const queued = this.reads.length > 0 ? `(${this.reads.join(' + ')})::int` : '0';
    const results = [...this.results].map(([name, expression]) => `, ${expression} as ${name}`).join('');
    return { text: `with\n  ${ctes}\n  select ${queued} as queued${results}`, values: this.values };
  }
}
