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

  it('leaves code, links and e-mail addresses alone, and lets no other class through', () => {
    const html = renderer.render('`@code` [@link](https://example.com) <a class="evil" href="/x">@x</a>').html;
    expect(html).to.not.include('user-mention');
    expect(html).to.not.match(/<a[^>]*class="evil"/);
  });
});
