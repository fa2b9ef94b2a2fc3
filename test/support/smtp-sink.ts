/*
 * A real SMTP server (the `smtp-server` package) in a process of its own, for the mail tests:
 *   node dist/test/support/smtp-sink.js <folder> [port] [--starttls]
 * It listens on 127.0.0.1 (port 0: a free one), prints `{"port":n}` once listening, then one JSON line per message:
 * `{"file", "from", "to", "secure", "user"}`, having written the raw message to `<folder>/<n>.eml`. It accepts
 * AUTH as SINK_USER with SINK_PASSWORD (from its environment) or none; with `--starttls` it offers STARTTLS (its
 * built-in self-signed certificate), otherwise not. SIGTERM stops it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

const [folder, port = '0', ...flags] = process.argv.slice(2);
if (folder === undefined) throw new Error('usage: smtp-sink <folder> [port] [--starttls]');
mkdirSync(folder, { recursive: true });
let count = 0;

const server = new SMTPServer({
  logger: false,
  authOptional: true,
  allowInsecureAuth: true,
  disabledCommands: flags.includes('--starttls') ? [] : ['STARTTLS'],
  onAuth(auth, _session, callback) {
    if (auth.username === process.env.SINK_USER && auth.password === process.env.SINK_PASSWORD)
      callback(null, { user: auth.username });
    else callback(new Error('Invalid username or password'));
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const file = path.join(folder, `${++count}.eml`);
      writeFileSync(file, Buffer.concat(chunks));
      const from = session.envelope.mailFrom === false ? null : session.envelope.mailFrom.address;
      const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
      process.stdout.write(`${JSON.stringify({ file, from, to, secure: session.secure, user: session.user ?? null })}\n`);
      callback();
    });
  },
});

server.listen(Number(port), '127.0.0.1', () => {
  const address = server.server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : null })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
