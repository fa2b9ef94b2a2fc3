import escapeHtml from 'escape-html';

/** Markup that is already safe: made by the `html` tag, never from a string a person typed. */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

type Interpolation = SafeHtml | string | number | null | undefined | false | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * Pages are written as tagged templates: every interpolated value is escaped (escape-html: `& < > " '`, which
 * makes it safe in text and in quoted attributes), unless it is itself made by this tag. Lists of fragments
 * join. So no user input can become markup, and composing pieces needs no string concatenation.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let markup = strings[0]!;
  values.forEach((value, i) => {
    markup += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(markup);
}
