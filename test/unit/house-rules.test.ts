import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

/** The TypeScript files under `folder`, with their text. */
function sources(folder: string): { file: string; text: string }[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ file: path.join(folder, file), text: readFileSync(path.join(folder, file), 'utf8') }));
}

/** Where `pattern` occurs in `files`: `file: the line`. */
function occurrences(files: { file: string; text: string }[], pattern: RegExp): string[] {
  return files.flatMap(({ file, text }) =>
    text.split('\n').flatMap((line) => (pattern.test(line) ? [`${file}: ${line.trim()}`] : [])),
  );
}

/** Rules of the house that a reader of the code could break without a test noticing: checked on the sources. */
describe('the house rules, on the sources', () => {
  it('keeps read models to reading: no statement in them writes', () => {
    const writes = /\b(insert\s+into|update\s+\w+(\s+\w+)?\s+set|delete\s+from|for\s+(no\s+key\s+)?update|nextval\s*\()/i;
    const readModels = [
      ...sources('src/adapters/persistence/read-models'),
      ...sources('src/adapters/persistence/conversations').filter(({ file }) => file.endsWith('read-model.ts')),
    ];
    expect(occurrences(readModels, writes)).to.deep.equal([]);
  });

  it('decides who sees a post in one place: no read model, mail or digest statement restates a condition of the policy', () => {
    // The conditions of domain/visibility/visibility.ts, as SQL would write them by hand.
    const conditions = /deleted_at\s+is\s+null|visibility\s*(=|<>|!=)\s*'|\bn\.hidden\b|\.grade\s*(<>|!=)\s*'ban'|'NoPoint'/i;
    const readers = [
      ...sources('src/adapters/persistence/read-models').filter(
        ({ file }) => !file.endsWith(path.join('read-models', 'visibility.ts')),
      ),
      ...sources('src/adapters/persistence').filter(({ file }) =>
        /(mail-facts|digest-queue|search-functions|search|posting-facts|reply-targets|upload-records)\.ts$/.test(file),
      ),
    ];
    expect(readers.length).to.be.greaterThan(8);
    expect(occurrences(readers, conditions)).to.deep.equal([]);
  });
});
