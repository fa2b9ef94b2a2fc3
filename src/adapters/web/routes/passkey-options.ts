import type { Context } from 'koa';
import { z } from 'zod';
import { RuleViolated } from '../../../domain/shared/errors.js';
import type { PageOperation } from '../docs.js';

/**
 * The answers of the two passkey options' routes (the settings' registration, the sign-in step's), which the passkey
 * script asks for: the options as JSON, never cached, or `{ error }` (also JSON: a script reads it, no person does).
 */

const Refused = z.object({ error: z.string() });
const Options = z
  .record(z.string(), z.unknown())
  .meta({ description: 'WebAuthn’s options as JSON (PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON)' });

/** The operation's responses: the options, and its refusals (`refusals`: status → when). */
export function passkeyOptionsResponses(
  refusals: Partial<Record<400 | 403, string>>,
): Pick<PageOperation, 'response' | 'otherResponses'> {
  return {
    response: {
      schema: Options,
      example: { challenge: 'q1w2e3…', rpId: 'forum.example', timeout: 60000 },
      description: 'The options for the browser’s WebAuthn ceremony',
      media: 'application/json',
    },
    otherResponses: Object.fromEntries(
      Object.entries(refusals).map(([status, description]) => [
        status,
        { schema: Refused, media: 'application/json', description },
      ]),
    ),
  };
}

/**
 * Answers with the options `make` gives, or its refusal (a status, a message); a rule the use case refuses by (too
 * many passkeys) is a 400 saying why.
 */
export async function sendPasskeyOptions(
  ctx: Context,
  make: () => Promise<{ options: Record<string, unknown> } | { status: 400 | 403; error: string }>,
): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  try {
    const made = await make();
    if ('options' in made) {
      ctx.body = made.options;
    } else {
      ctx.status = made.status;
      ctx.body = { error: made.error };
    }
  } catch (error) {
    if (!(error instanceof RuleViolated)) throw error;
    ctx.status = 400;
    ctx.body = { error: error.message.replace(/^Validation failed: /, '') };
  }
}
