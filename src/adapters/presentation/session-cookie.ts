/**
 * The browser session's cookie (contract §16b): set by the pages' sign-in, read by the pages, and by the one API
 * read a page's script makes with it (the live notification stream, §21b).
 */
export const SESSION_COOKIE = 'forum_session';
