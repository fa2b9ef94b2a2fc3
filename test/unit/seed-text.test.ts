import { expect } from 'chai';
import { SEED_TOPIC_TAIL } from '../../src/application/maintenance/seed-text.js';
import { oneLine } from '../../src/application/search/highlight.js';
import { ParsedHtmlText } from '../../src/adapters/system/html-text.js';

describe('seed texts', () => {
  it("the topics' Markdown tail: its text is what a reader sees of its HTML, as the indexer would keep it", () => {
    // The seeder writes this text into every topic's search document in SQL, without the service's parser.
    expect(oneLine(new ParsedHtmlText().plain(SEED_TOPIC_TAIL.html))).to.equal(SEED_TOPIC_TAIL.text);
  });
});
