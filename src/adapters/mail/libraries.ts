import { createRequire } from 'node:module';
import type * as Nodemailer from 'nodemailer';
import type * as SmtpServer from 'smtp-server';

/**
 * The mail libraries, each loaded when first used: a process that sends and takes no mail (forumctl, mostly) does not
 * pay for loading them.
 */
const require = createRequire(import.meta.url);
let mailer: typeof Nodemailer | undefined;
let server: typeof SmtpServer | undefined;

export const nodemailer = (): typeof Nodemailer => (mailer ??= require('nodemailer') as typeof Nodemailer);
export const smtpServer = (): typeof SmtpServer => (server ??= require('smtp-server') as typeof SmtpServer);
