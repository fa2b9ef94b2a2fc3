import { expect } from 'chai';
import { type HighlightPart, excerpt, highlighter, oneLine } from '../../src/application/search/highlight.js';

/** Parts as text with [brackets] around the marked ones. */
const shown = (parts: HighlightPart[] | null) =>
  parts && parts.map((part) => (part.marked ? `[${part.text}]` : part.text)).join('');

describe('search highlights', () => {
  it('marks every word a stem begins, in any case, and no word it only ends or sits inside', () => {
    const mark = highlighter(['databas']);
    expect(shown(mark('Databases: the DATABASE, a database; not metadatabase or xdatabase'))).to.equal(
      '[Databases]: the [DATABASE], a [database]; not metadatabase or xdatabase',
    );
  });

  it('finds Chinese words inside unspaced text, and marks overlapping matches once', () => {
    expect(shown(highlighter(['数据库', '数据'])('这是一个数据库的问题'))).to.equal('这是一个[数据库]的问题');
    expect(shown(highlighter(['缓存', 'cach'])('缓存 caching 与缓存'))).to.equal('[缓存] [caching] 与[缓存]');
  });

  it('says null when nothing matches, and ignores stems no word can hold', () => {
    expect(highlighter(['zzqx'])('nothing here')).to.equal(null);
    expect(highlighter(['e-mail'])('send an e-mail')).to.equal(null);
    expect(shown(highlighter(['e-mail', 'mail'])('send an e-mail'))).to.equal('send an e-[mail]');
  });

  it('cuts a window around the first match with ellipses, on characters, never inside an emoji', () => {
    const text = `${'😀'.repeat(100)} needle ${'😀'.repeat(100)}`;
    const parts = highlighter(['needl'], 40)(text)!;
    expect(parts[0]).to.deep.equal({ text: '…', marked: false });
    expect(parts.at(-1)).to.deep.equal({ text: '…', marked: false });
    expect(parts.find((part) => part.marked)!.text).to.equal('needle');
    const inside = parts
      .slice(1, -1)
      .map((part) => part.text)
      .join('');
    expect(Array.from(inside)).to.have.length(40);
    expect(inside).to.not.match(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it('cuts text put on one line, and an excerpt is the start of the text', () => {
    expect(oneLine('  a\n\n  b\tc ')).to.equal('a b c');
    expect(shown(highlighter(['b'])(oneLine('a\n\n  b\tc')))).to.equal('a [b] c');
    expect(excerpt(oneLine('one  two\nthree'), 7)).to.deep.equal([
      { text: 'one two', marked: false },
      { text: '…', marked: false },
    ]);
    expect(excerpt('😀😀😀', 2)[0]!.text).to.equal('😀😀');
  });
});
