import { createRequire } from 'node:module';
import type Juice from 'juice';
import type SanitizeHtml from 'sanitize-html';

/**
 * juice (and cheerio under it) and sanitize-html, loaded at the first mail written: a process that writes none does
 * not load them.
 */
const require = createRequire(import.meta.url);
let loadedJuice: typeof Juice | undefined;
let loadedSanitize: typeof SanitizeHtml | undefined;
const juice = (): typeof Juice => (loadedJuice ??= require('juice') as typeof Juice);
const sanitizeHtml = (...args: Parameters<typeof SanitizeHtml>) =>
  (loadedSanitize ??= require('sanitize-html') as typeof SanitizeHtml)(...args);

/**
 * How a post looks in mail: the rules a forum page's stylesheet would give it, written into each element's
 * `style` by juice, since mail clients drop `<style>` and never load a stylesheet. Same palette as the layout.
 */
const POST_CSS = `
  p { margin: 0 0 12px; }
  h1, h2, h3, h4, h5, h6 { margin: 16px 0 8px; line-height: 1.3; }
  a { color: #1f6feb; }
  a.user-mention { font-weight: 600; text-decoration: none; }
  pre { margin: 0 0 12px; padding: 10px 12px; background: #f6f8fa; border-radius: 4px; overflow-x: auto;
        font: 13px/1.45 ui-monospace, Menlo, Consolas, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
  code { padding: 1px 4px; background: #f6f8fa; border-radius: 3px; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
  pre code { padding: 0; background: transparent; }
  blockquote { margin: 0 0 12px; padding: 0 12px; border-left: 3px solid #d0d7de; color: #57606a; }
  img { max-width: 100%; height: auto; }
  table { border-collapse: collapse; margin: 0 0 12px; }
  th, td { border: 1px solid #d0d7de; padding: 4px 8px; }
  ul, ol { margin: 0 0 12px; padding-left: 24px; }
  hr { border: 0; border-top: 1px solid #e2e2e2; margin: 16px 0; }
`;

/**
 * A post's sanitized HTML (the API's `body_html`) made fit for mail: links and images absolute against
 * PUBLIC_URL (a mention is `/login` on the forum, nothing in a mailbox), then styles inlined.
 */
export class InlinedPostHtml {
  constructor(private readonly publicUrl: string) {}

  forMail(html: string): string {
    const absolute = (value: string | undefined) => {
      if (!value) return value ?? '';
      try {
        return new URL(value, this.publicUrl).href;
      } catch {
        return value;
      }
    };
    // The HTML was sanitized when it was written (markdown.ts); this pass only rewrites URLs, so it allows all.
    const linked = sanitizeHtml(html, {
      allowedTags: false,
      allowedAttributes: false,
      // Nothing vulnerable is left in it to allow: it was sanitized when written.
      allowVulnerableTags: true,
      transformTags: {
        a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, href: absolute(attribs.href) } }),
        img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, src: absolute(attribs.src) } }),
      },
    });
    return juice().inlineContent(linked, POST_CSS, { applyWidthAttributes: false, applyHeightAttributes: false });
  }
}
