import { expect } from 'chai';
import { SanitizingMarkdownRenderer } from '../../src/adapters/system/markdown.js';

describe('SanitizingMarkdownRenderer: mentions', () => {
  const renderer = new SanitizingMarkdownRenderer();
  const mentions = (text: string) => renderer.render(text).mentions;

  it('finds @logins in text, in order', () => {
    expect(mentions('hi @carol and @Dave_1, also @x.y-z.')).to.deep.equal(['carol', 'Dave_1', 'x.y-z']);
  });

  it('ignores e-mail addresses, code spans, code blocks and link texts', () => {
    expect(
      mentions('mail bob@example.com `@code` [@link](https://example.com)\n\n    @indented\n\n```\n@fenced\n```'),
    ).to.deep.equal([]);
  });

  it('ignores a lone @ and one-letter names', () => {
    expect(mentions('@ a @b')).to.deep.equal([]);
  });
});

describe('SanitizingMarkdownRenderer: mention links', () => {
  const renderer = new SanitizingMarkdownRenderer();

  it('renders @login as a user-mention link, as homeland does', () => {
    expect(renderer.render('thanks @carol.').html).to.equal(
      '<p>thanks <a href="/carol" class="user-mention" rel="nofollow noopener">@carol</a>.</p>',
    );
  });

  it('finds and links mentions in the text of allow-listed raw HTML too, as in Markdown (contract §6)', () => {
    expect(renderer.render('<p>hi @carol</p>')).to.deep.equal({
      html: '<p>hi <a href="/carol" class="user-mention" rel="nofollow noopener">@carol</a></p>',
      mentions: ['carol'],
      links: 0,
    });
    expect(renderer.render('<div><strong>@dave</strong> and @erin</div>').mentions).to.deep.equal(['dave', 'erin']);
    expect(renderer.render('*@frank* <b>@gina</b>').mentions).to.deep.equal(['frank', 'gina']);
  });

  it('never in raw code, pre or link elements, nor in attributes', () => {
    for (const body of [
      '<code>@carol</code>',
      '<pre>@carol</pre>',
      '<pre><code>x\n<b>@carol</b></code></pre>',
      '<a href="x">@carol</a>',
      '<p><a href="https://example.com"><b>@carol</b></a></p>',
      '<img src="https://example.com/a.png" alt="@carol" title="@carol">',
      '<p>mail carol@example.com</p>',
    ]) {
      const rendered = renderer.render(body);
      expect(rendered.mentions, body).to.deep.equal([]);
      expect(rendered.html, body).to.not.include('user-mention');
    }
    expect(renderer.render('<code>@carol</code> @dave <a href="x">@erin</a> @fay').mentions).to.deep.equal(['dave', 'fay']);
  });

  it('leaves code, links and e-mail addresses alone', () => {
    const html = renderer.render('`@code` [@link](https://example.com) mail@example.com').html;
    expect(html).to.not.include('user-mention');
  });
});

describe('SanitizingMarkdownRenderer: homeland rendering (contract §5)', () => {
  const html = (text: string) => new SanitizingMarkdownRenderer().render(text).html;

  it('turns a single newline into a line break', () => {
    expect(html('line one\nline two')).to.equal('<p>line one<br />\nline two</p>');
  });

  it('links bare URLs, keeps the language of fenced code, renders tables with their alignment as a class', () => {
    expect(html('see https://example.com/a?b=1 now')).to.equal(
      '<p>see <a href="https://example.com/a?b=1" rel="nofollow noopener">https://example.com/a?b=1</a> now</p>',
    );
    expect(html('```ruby\nputs 1\n```')).to.equal('<pre><code class="language-ruby">puts 1\n</code></pre>');
    const table = html('| a | b |\n|:--|--:|\n| 1 | 2 |');
    expect(table).to.include('<table>').and.include('<th class="text-left">a</th>').and.include('<td class="text-right">2</td>');
    expect(table).to.not.include('style');
  });

  it('keeps raw HTML on the allow-list, with its allowed attributes', () => {
    expect(html('<p>Hi <strong>all</strong></p>')).to.equal('<p>Hi <strong>all</strong></p>');
    expect(
      html('<span class="note" id="n1" lang="en" title="t">x</span> <u>u</u> <b>b</b> <i>i</i> <strike>s</strike>'),
    ).to.equal('<p><span class="note" id="n1" lang="en" title="t">x</span> <u>u</u> <b>b</b> <i>i</i> <strike>s</strike></p>');
    expect(html('<a href="/topics/1#reply3" target="_blank" data-floor="3">floor</a>')).to.equal(
      '<p><a href="/topics/1#reply3" target="_blank" data-floor="3" rel="nofollow noopener">floor</a></p>',
    );
    expect(html('an <img src="https://img.example/a.png" alt="a" width="10" height="20"> inline')).to.equal(
      '<p>an <img src="https://img.example/a.png" alt="a" width="10" height="20" /> inline</p>',
    );
  });

  it('drops elements off the list but keeps their text', () => {
    expect(html('<div>kept <section>text</section></div>')).to.equal('kept text');
    expect(html('a <font color="red">red</font> word')).to.equal('<p>a red word</p>');
  });

  it('never lets scripts, frames, styles, event attributes or javascript:/data: URLs through', () => {
    const hostile = [
      '<script>alert(1)</script>',
      '<p>x<script>alert(2)</script></p>',
      '<iframe src="https://evil.example"></iframe>',
      '<style>body{display:none}</style>',
      '<p style="position:fixed">styled</p>',
      '<img src=x onerror="alert(3)">',
      '<a href="javascript:alert(4)">j</a>',
      '<a href="JaVaScRiPt&colon;alert(5)">j</a>',
      '[md](javascript:alert(6))',
      '<img src="data:image/png;base64,AAAA">',
      '<a href="data:text/html,<script>alert(7)</script>">d</a>',
      '<svg onload="alert(8)"><circle /></svg>',
      '<img src="//evil.example/x.png">',
      '<object data="x"></object><embed src="x">',
    ].join('\n\n');
    const out = html(hostile).toLowerCase();
    // What could run or load: elements, event and style attributes, and URL attributes with those schemes.
    // (A Markdown link markdown-it refuses stays as plain text, which runs nothing.)
    for (const element of ['<script', '<iframe', '<style', '<svg', '<object', '<embed']) expect(out).to.not.include(element);
    expect(out).to.not.match(/\son\w+=/);
    expect(out).to.not.match(/\sstyle=/);
    expect(out).to.not.match(/(href|src)="\s*(javascript|data):/);
    expect(out).to.not.match(/(href|src)="\/\//);
    expect(out).to.include('styled');
  });
});

describe('SanitizingMarkdownRenderer: floor references (contract §21a)', () => {
  const renderer = new SanitizingMarkdownRenderer();

  it('links #3楼 and #12F to the floor’s anchor on the topic page, as homeland renders them', () => {
    expect(renderer.render('同意 #3楼 的说法, see #12F too').html).to.equal(
      '<p>同意 <a href="#reply3" class="at_floor" data-floor="3">#3楼</a> 的说法, see ' +
        '<a href="#reply12" class="at_floor" data-floor="12">#12F</a> too</p>',
    );
  });

  it('leaves alone code, links, words that only contain one, and character references', () => {
    expect(renderer.render('`#3楼` [#4楼](https://example.com) abc#5F #6Fx issue#7 &#38;').html).to.equal(
      '<p><code>#3楼</code> <a href="https://example.com" rel="nofollow noopener">#4楼</a> abc#5F #6Fx issue#7 &amp;</p>',
    );
  });
});
