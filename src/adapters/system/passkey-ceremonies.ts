import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { CeremonyOptions, NewCredential, PasskeyCeremonies, StoredPasskey } from '../../application/second-factors/ports.js';

/** The name authenticators show for the service. */
const RELYING_PARTY_NAME = 'forum';

/** A credential id as browsers send it: base64url, of at most 1023 bytes (WebAuthn's limit). */
const CREDENTIAL_ID = /^[A-Za-z0-9_-]{1,1364}$/;

/** The transports a browser may name for a credential (kept to give back as hints; anything else is dropped). */
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/**
 * WebAuthn's ceremonies by @simplewebauthn/server, for the relying party the service's public URL names (PUBLIC_URL:
 * its host is the relying party id, its origin the only origin accepted). No attestation is asked for ("none"): a
 * passkey is a second factor of a person's choosing, not a device the forum vets. User verification is preferred,
 * not required: the password was the first factor, the passkey shows possession.
 */
export class SimpleWebAuthnCeremonies implements PasskeyCeremonies {
  private readonly rpID: string;
  private readonly origin: string;

  constructor(publicUrl: string) {
    const url = new URL(publicUrl);
    this.rpID = url.hostname;
    this.origin = url.origin;
  }

  async registrationOptions(user: { login: string }, exclude: readonly StoredPasskey[]): Promise<CeremonyOptions> {
    const options = await generateRegistrationOptions({
      rpName: RELYING_PARTY_NAME,
      rpID: this.rpID,
      userName: user.login,
      attestationType: 'none',
      excludeCredentials: exclude.map(hintOf),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    return { options: { ...options }, challenge: options.challenge };
  }

  async verifyRegistration(response: unknown, challenge: string): Promise<NewCredential | null> {
    if (!isObject(response)) return null;
    try {
      const verified = await verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        requireUserVerification: false,
      });
      if (!verified.verified) return null;
      const { credential } = verified.registrationInfo;
      return {
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        signCount: credential.counter,
        transports: (credential.transports ?? []).filter((transport) => TRANSPORTS.has(transport)),
      };
    } catch {
      // Not a registration response, or one that does not verify: the library says which; the person only needs "no".
      return null;
    }
  }

  async authenticationOptions(allow: readonly StoredPasskey[]): Promise<CeremonyOptions> {
    const options = await generateAuthenticationOptions({
      rpID: this.rpID,
      allowCredentials: allow.map(hintOf),
      userVerification: 'preferred',
    });
    return { options: { ...options }, challenge: options.challenge };
  }

  credentialIdOf(response: unknown): string | null {
    if (!isObject(response) || typeof response.id !== 'string') return null;
    return CREDENTIAL_ID.test(response.id) ? response.id : null;
  }

  async verifyAuthentication(
    response: unknown,
    challenge: string,
    passkey: StoredPasskey,
  ): Promise<{ signCount: number } | null> {
    if (!isObject(response) || response.id !== passkey.credentialId) return null;
    try {
      const verified = await verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        credential: {
          id: passkey.credentialId,
          publicKey: isoBase64URL.toBuffer(passkey.publicKey),
          counter: passkey.signCount,
          transports: passkey.transports as AuthenticatorTransport[],
        },
        requireUserVerification: false,
      });
      return verified.verified ? { signCount: verified.authenticationInfo.newCounter } : null;
    } catch {
      return null;
    }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A passkey as options name it: its id, and the transports its browser said it uses. */
const hintOf = (passkey: StoredPasskey) => ({
  id: passkey.credentialId,
  transports: passkey.transports as AuthenticatorTransport[],
});
