import escapeHtml from 'escape-html';
import { type ComponentChildren, type VNode, options } from 'preact';
import { jsxTemplate } from 'preact/jsx-runtime';
import { renderToString } from 'preact-render-to-string';

/**
 * HTML from typed views (JSX, preact-render-to-string), for the pages and the mail alike. Every text and every
 * attribute value is escaped: no value can become markup. The one way in for HTML that is not ours is
 * `dangerouslySetInnerHTML`, given only the core's sanitized `body_html` (and our own style sheet).
 *
 * preact-render-to-string escapes `& < "` in text and attribute values. The pages and the mail have always escaped
 * as escape-html does (`& < > " '`), and a reader's tools (a mail client's filters, a regular expression that
 * takes `>` for the end of a tag) may count on `>` never appearing raw. So, on top of the renderer:
 * - every string child of an element is escaped as escape-html does when its element is made (a preact option
 *   hook), and handed to the renderer as text already escaped (a template part, which it does not escape again);
 * - in the rendered markup, a `>` inside an attribute value becomes `&gt;`. Attribute values are always written
 *   `="…"` with every `"` in them escaped, and text never holds a raw `"`, so `="…"` finds exactly the values (in
 *   the raw HTML of a post, too, where the same change leaves the same meaning).
 */

type Children = ComponentChildren;

/** The string children of an element, escaped once, as template parts; anything else as it is. */
function escapedChildren(children: Children): Children {
  if (typeof children === 'string') return children === '' ? children : jsxTemplate([escapeHtml(children)]);
  if (Array.isArray(children)) return children.map((child: Children) => escapedChildren(child));
  return children;
}

const previousHook = options.vnode;
options.vnode = (vnode: VNode) => {
  if (typeof vnode.type === 'string') {
    const props = vnode.props as { children?: Children };
    if (props.children !== undefined) props.children = escapedChildren(props.children);
  }
  previousHook?.(vnode);
};

/** `>` in attribute values, escaped (see above): only the values that hold one are matched (most hold none). */
const escapeAttributeValues = (markup: string) =>
  markup.replace(/="([^">]*>[^"]*)"/g, (_whole, value: string) => `="${value.replace(/>/g, '&gt;')}"`);

/** A fragment of HTML (a view's element, a mail's body). */
export function renderHtml(node: VNode): string {
  return escapeAttributeValues(renderToString(node));
}

/** A whole HTML document: the doctype, then the `<html>` element. */
export function renderDocument(node: VNode): string {
  return `<!doctype html>${renderHtml(node)}`;
}
