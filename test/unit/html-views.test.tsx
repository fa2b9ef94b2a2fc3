import { expect } from 'chai';
import { renderDocument, renderHtml } from '../../src/adapters/presentation/html.js';

const HOSTILE = `<script>alert("x")</script> & 'co' > "q"`;

describe('typed views (presentation/html.ts)', () => {
  it('escapes every text child as escape-html does, whatever the element', () => {
    const html = renderHtml(
      <p>
        Hi {HOSTILE}, <strong>{HOSTILE}</strong>
        <textarea>{HOSTILE}</textarea>
        <option value="x">{HOSTILE}</option>
      </p>,
    );
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39; &gt; &quot;q&quot;';
    expect(html.split(escaped)).to.have.length(5);
    expect(html).to.not.contain('<script');
  });

  it('escapes attribute values, `>` included', () => {
    const html = renderHtml(<input type="hidden" name="state" value={HOSTILE} />);
    expect(html).to.equal(
      '<input type="hidden" name="state" value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; \'co\' &gt; &quot;q&quot;"/>',
    );
    // A naive reader of tags (up to the first `>`) reads the whole tag.
    expect(/<input\b[^>]*>/.exec(html)![0]).to.equal(html);
  });

  it('lets HTML in only through dangerouslySetInnerHTML, as it is', () => {
    const html = renderHtml(<div dangerouslySetInnerHTML={{ __html: '<p class="x">a &amp; b</p>' }} />);
    expect(html).to.equal('<div><p class="x">a &amp; b</p></div>');
  });

  it('writes a whole document with its doctype', () => {
    expect(renderDocument(<html lang="zh-CN" />)).to.equal('<!doctype html><html lang="zh-CN"></html>');
  });
});
