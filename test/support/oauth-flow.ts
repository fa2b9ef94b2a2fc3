import { createHash, randomBytes } from 'node:crypto';

/** A PKCE pair (RFC 7636): a random verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' };

function decode(text: string): string {
  return text.replace(/&(amp|quot|#39|lt|gt);/g, (entity) => ENTITIES[entity]!);
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decode(match[1]!) : undefined;
}

/** A form of a page, as a browser would send it: its hidden fields, and its submit buttons' names and values. */
export interface PageForm {
  action: string;
  method: string;
  fields: Record<string, string>;
  buttons: { name?: string; value?: string; text: string }[];
}

/** The forms of an HTML page, in order. */
export function formsOf(html: string): PageForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, open, inner]) => {
    const fields: Record<string, string> = {};
    for (const [tag] of inner!.matchAll(/<input\b[^>]*>/g)) {
      if (attribute(tag, 'type') === 'hidden') fields[attribute(tag, 'name')!] = attribute(tag, 'value') ?? '';
    }
    const buttons = [...inner!.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map(([, tag, text]) => ({
      name: attribute(tag!, 'name'),
      value: attribute(tag!, 'value'),
      text: decode(text!.trim()),
    }));
    return { action: attribute(open!, 'action')!, method: attribute(open!, 'method')!, fields, buttons };
  });
}

/** The form posting to `action` (the first one), or a failure naming what the page had. */
export function formTo(html: string, action: string): PageForm {
  const form = formsOf(html).find((candidate) => candidate.action === action);
  if (!form) throw new Error(`no form posting to ${action} on the page:\n${html.slice(0, 2000)}`);
  return form;
}

/** The query of a redirect's Location, as an object. */
export function locationQuery(location: string): Record<string, string> {
  return Object.fromEntries(new URL(location).searchParams);
}
