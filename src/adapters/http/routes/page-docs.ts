import { z } from 'zod';

/**
 * How the OpenAPI document describes the pages for a person in a browser (the /oauth and /account pages): one
 * vocabulary for every page route, so that they read, and are documented, alike.
 */

/** An HTML page, as a response schema. */
export const Page = z.string().meta({ description: 'An HTML page' });

/** A page among an operation's other responses (an error page, a form shown again). */
export const page = (description: string) => ({ schema: Page, media: 'text/html', description });

/** A page as an operation's response. */
export const htmlPage = (description: string) => ({
  schema: Page,
  example: '<!doctype html>…',
  description,
  media: 'text/html',
});

/** `lang`, which every page takes. */
export const Lang = z.enum(['en', 'zh-CN']).optional().meta({ description: 'The page’s language; else Accept-Language decides' });

/** The CSRF token every form carries. */
export const Csrf = z.string().meta({ description: 'The token the page put in the form' });
