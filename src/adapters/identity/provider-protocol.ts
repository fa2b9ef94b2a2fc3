import * as client from 'openid-client';
import { Unavailable } from '../../domain/shared/errors.js';
import {
  type FlowChecks,
  ProviderAnswerRejected,
  type ProviderIdentity,
  type ProviderProtocol,
} from '../../application/providers/provider-sign-in.js';
import type { UsableProvider } from '../../application/providers/providers.js';

/**
 * The protocols of contract §25's providers, through openid-client (a certified relying party: it checks state,
 * sends the PKCE verifier, and verifies the ID token's issuer, audience, expiry and nonce, and its signature once
 * enableNonRepudiationChecks is on; nothing here checks a token by hand).
 * - OpenID Connect: discovery from the issuer (cached per process and provider), the authorization code flow with
 *   PKCE (S256), state and nonce; the claims of the ID token, with the UserInfo endpoint's where it has no address.
 * - GitHub: OAuth 2's web flow (with state and PKCE), then the user from its API and the verified primary address
 *   from GET /user/emails (GitHub is no OpenID provider: no ID token, no nonce).
 */

const USER_AGENT = 'forum-sign-in';

/** Plain http only to the machine itself (a provider on the same host, the tests' stand-ins); https everywhere else. */
function isLoopback(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && (hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]');
}

/** What an error of openid-client (or of reaching the provider) means: the answer did not check out, or no answer. */
function meaning(error: unknown): Error {
  if (error instanceof ProviderAnswerRejected || error instanceof Unavailable) return error;
  const named = error as { name?: string; code?: string; cause?: { name?: string } };
  const unreached = ['TypeError', 'AbortError', 'TimeoutError'];
  if (unreached.includes(named.name ?? '') || unreached.includes(named.cause?.name ?? '') || named.code === 'OAUTH_TIMEOUT') {
    return new Unavailable('The sign-in provider cannot be reached');
  }
  return new ProviderAnswerRejected(error instanceof Error ? error.message : String(error));
}

export class OpenIdProviderProtocol implements ProviderProtocol {
  /** Discovery's answer per provider (its id, issuer and client), once per process; a failure is asked again next time. */
  private readonly discovered = new Map<string, Promise<client.Configuration>>();

  async begin(provider: UsableProvider, redirectUri: string): Promise<{ url: string; checks: FlowChecks }> {
    const config = await this.configuration(provider);
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = provider.kind === 'oidc' ? client.randomNonce() : null;
    const parameters: Record<string, string> = {
      redirect_uri: redirectUri,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      scope: provider.kind === 'oidc' ? 'openid email profile' : 'read:user user:email',
      ...(nonce === null ? {} : { nonce }),
    };
    return { url: client.buildAuthorizationUrl(config, parameters).href, checks: { state, nonce, codeVerifier } };
  }

  async finish(provider: UsableProvider, redirectUri: string, callback: URL, checks: FlowChecks): Promise<ProviderIdentity> {
    const config = await this.configuration(provider);
    try {
      const tokens = await client.authorizationCodeGrant(
        config,
        callback,
        {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          ...(provider.kind === 'oidc' ? { expectedNonce: checks.nonce ?? '', idTokenExpected: true } : {}),
        },
        { redirect_uri: redirectUri },
      );
      return provider.kind === 'oidc'
        ? await this.oidcIdentity(config, tokens)
        : await this.githubIdentity(provider, tokens.access_token);
    } catch (error) {
      throw meaning(error);
    }
  }

  private async oidcIdentity(
    config: client.Configuration,
    tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  ): Promise<ProviderIdentity> {
    let claims: Record<string, unknown> = { ...tokens.claims()! };
    // Many providers keep the address out of the ID token: the UserInfo endpoint has it (for the same subject only).
    if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
      claims = { ...claims, ...(await client.fetchUserInfo(config, tokens.access_token, String(claims.sub))) };
    }
    const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
    return {
      subject: String(claims.sub),
      email: text(claims.email),
      emailVerified: claims.email_verified === true,
      login: text(claims.preferred_username) ?? text(claims.nickname),
      name: text(claims.name),
    };
  }

  private async githubIdentity(provider: UsableProvider, accessToken: string): Promise<ProviderIdentity> {
    const api = async <T>(path: string): Promise<T> => {
      const response = await fetch(`${provider.apiUrl!.replace(/\/$/, '')}${path}`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/vnd.github+json', 'user-agent': USER_AGENT },
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new ProviderAnswerRejected(`GitHub answered ${response.status} to ${path}`);
      return (await response.json()) as T;
    };
    const user = await api<{ id: number; login: string; name: string | null }>('/user');
    const emails = await api<{ email: string; primary: boolean; verified: boolean }[]>('/user/emails');
    const primary = emails.find((email) => email.primary) ?? null;
    if (typeof user.id !== 'number') throw new ProviderAnswerRejected('GitHub gave no user id');
    return {
      subject: String(user.id),
      email: primary?.email ?? null,
      emailVerified: primary?.verified === true,
      login: user.login ?? null,
      name: user.name ?? null,
    };
  }

  private configuration(provider: UsableProvider): Promise<client.Configuration> {
    const key = `${provider.id}:${provider.issuer ?? provider.authorizeUrl}:${provider.clientId}`;
    let found = this.discovered.get(key);
    if (!found) {
      found = this.configure(provider);
      this.discovered.set(key, found);
      found.catch(() => this.discovered.delete(key));
    }
    return found;
  }

  private async configure(provider: UsableProvider): Promise<client.Configuration> {
    const auth = client.ClientSecretPost(provider.clientSecret);
    if (provider.kind === 'oidc') {
      try {
        return await client.discovery(new URL(provider.issuer!), provider.clientId, undefined, auth, {
          // openid-client trusts an ID token from the token endpoint for TLS's sake and checks no signature unless
          // told to: contract §25 verifies it (against the keys of the issuer's jwks_uri), whatever the transport.
          execute: [client.enableNonRepudiationChecks, ...(isLoopback(provider.issuer!) ? [client.allowInsecureRequests] : [])],
          timeout: 10,
        });
      } catch (error) {
        throw new Unavailable(`The sign-in provider ${provider.name} cannot be discovered`, 5, { cause: error });
      }
    }
    const config = new client.Configuration(
      {
        issuer: new URL(provider.authorizeUrl!).origin,
        authorization_endpoint: provider.authorizeUrl!,
        token_endpoint: provider.tokenUrl!,
      },
      provider.clientId,
      undefined,
      auth,
    );
    if (isLoopback(provider.tokenUrl!)) client.allowInsecureRequests(config);
    return config;
  }
}
