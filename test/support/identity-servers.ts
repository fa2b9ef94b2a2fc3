import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The providers of contract §25 in a child process (identity-servers-main.ts): a real OpenID provider and a
 * stand-in for GitHub. `next` says who signs in at each next.
 */
export interface IdentityServers {
  /** The OpenID provider's issuer URL; its client is `forum` / `forum-client-secret`. */
  issuer: string;
  /** Where GitHub's endpoints are: `${github}/login/oauth/authorize`, `/login/oauth/access_token`, and the API. */
  github: string;
  /** Who signs in next: `oidc` claims (null: the provider's own login page asks), or GitHub's user. */
  next(control: { oidc?: object | null; github?: object | null }): Promise<void>;
  close(): void;
}

export async function startIdentityServers(redirectUris: string[]): Promise<IdentityServers> {
  const main = path.join(path.dirname(fileURLToPath(import.meta.url)), 'identity-servers-main.js');
  const child = spawn(process.execPath, [main, JSON.stringify(redirectUris)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const atExit = () => child.kill('SIGKILL');
  process.once('exit', atExit);
  let output = '';
  const urls = await new Promise<{ issuer: string; github: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`identity servers did not start: ${output}`)), 15_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { issuer: string; github: string });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`identity servers exited (${code}): ${output}`)));
  });
  return {
    ...urls,
    async next(control) {
      const response = await fetch(`${urls.github}/_control`, { method: 'POST', body: JSON.stringify(control) });
      if (!response.ok) throw new Error(`control: ${response.status}`);
    },
    close() {
      process.off('exit', atExit);
      child.kill('SIGKILL');
    },
  };
}

/**
 * Follows a provider's redirects from `start` (keeping its cookies, as a browser does) until it sends the browser
 * back to the forum at `forum` (its public URL): that path, with its query.
 */
export async function throughProvider(start: string, forum: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(forum)) return url.slice(forum.length);
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      jar.set(name!, value ?? '');
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the provider stopped at ${url}: ${response.status} ${(await response.text()).slice(0, 500)}`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects');
}
