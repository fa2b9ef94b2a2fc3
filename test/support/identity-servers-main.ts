/**
 * A child process standing in for the providers of contract §25: a real OpenID provider (oidc-provider, certified),
 * and GitHub's OAuth 2 endpoints and API (a few routes of a plain HTTP server). Prints one JSON line with their
 * URLs once both listen. `POST /_control` on the GitHub stand-in sets who signs in next: `oidc` (the claims of the
 * account the provider's login step signs in without asking; absent: its own login page asks) and `github` (the
 * user and addresses GitHub's API answers with).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

interface Claims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  name?: string;
}
interface GithubUser {
  id: number;
  login: string;
  name: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

const redirectUris = JSON.parse(process.argv[2] ?? '[]') as string[];
let nextOidc: Claims | null = null;
const known = new Map<string, Claims>();
let github: GithubUser | null = null;

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

// ---- the OpenID provider
const oidcServer = http.createServer();
const oidcPort = await listen(oidcServer);
const issuer = `http://127.0.0.1:${oidcPort}`;
const provider = new Provider(issuer, {
  clients: [{ client_id: 'forum', client_secret: 'forum-client-secret', redirect_uris: redirectUris }],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
  findAccount: (_ctx: unknown, sub: string) => ({
    accountId: sub,
    claims: () => known.get(sub) ?? { sub, email: `${sub}@example.com`, email_verified: true, preferred_username: sub },
  }),
  pkce: { required: () => true },
  cookies: { keys: ['identity-servers-test-key'] },
  features: { devInteractions: { enabled: true } },
});
// The login step, when the test said who signs in: done at once, with the consent the forum asks for.
provider.use(
  async (
    ctx: { path: string; method: string; req: http.IncomingMessage; res: http.ServerResponse; respond: boolean },
    next: () => Promise<void>,
  ) => {
    const match = /^\/interaction\/([^/]+)$/.exec(ctx.path);
    if (!match || ctx.method !== 'GET' || nextOidc === null) return next();
    const claims = nextOidc;
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const grant = new provider.Grant({ accountId: claims.sub, clientId: String(details.params.client_id) });
    grant.addOIDCScope('openid email profile');
    const grantId = await grant.save();
    known.set(claims.sub, claims);
    await provider.interactionFinished(
      ctx.req,
      ctx.res,
      { login: { accountId: claims.sub }, consent: { grantId } },
      {
        mergeWithLastSubmission: false,
      },
    );
    ctx.respond = false;
  },
);
oidcServer.on('request', provider.callback());

// ---- GitHub's endpoints
const githubServer = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const body = await new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => resolve(text));
  });
  const json = (status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  if (url.pathname === '/_control' && req.method === 'POST') {
    const control = JSON.parse(body) as { oidc?: Claims | null; github?: GithubUser | null };
    if ('oidc' in control) nextOidc = control.oidc ?? null;
    if ('github' in control) github = control.github ?? null;
    return json(200, { ok: 1 });
  }
  if (url.pathname === '/login/oauth/authorize') {
    const back = new URL(url.searchParams.get('redirect_uri')!);
    back.searchParams.set('code', `code-${github?.id ?? 0}`);
    back.searchParams.set('state', url.searchParams.get('state') ?? '');
    res.writeHead(302, { location: back.href });
    return res.end();
  }
  if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
    const form = new URLSearchParams(body);
    if (form.get('client_secret') !== 'github-client-secret' || !form.get('code_verifier')) {
      return json(200, { error: 'bad_verification_code' });
    }
    return json(200, { access_token: `gho_${github?.id ?? 0}`, token_type: 'bearer', scope: 'read:user,user:email' });
  }
  const authorized = req.headers.authorization === `Bearer gho_${github?.id ?? 0}` && github !== null;
  if (url.pathname === '/user')
    return authorized ? json(200, { id: github!.id, login: github!.login, name: github!.name }) : json(401, {});
  if (url.pathname === '/user/emails') return authorized ? json(200, github!.emails) : json(401, {});
  json(404, {});
});
const githubPort = await listen(githubServer);
process.stdout.write(`${JSON.stringify({ issuer, github: `http://127.0.0.1:${githubPort}` })}\n`);
