import { InvalidInput } from '../../domain/shared/errors.js';
import { type Actor, requireUser } from '../actor.js';
import { type RawParam, requiredText } from '../params.js';

export const DEVICE_PLATFORMS = ['ios', 'android'] as const;
export type DevicePlatform = (typeof DEVICE_PLATFORMS)[number];

/** Where push-notification device tokens are kept: one owner per (platform, token). */
export interface DeviceRegistry {
  /** The device now belongs to `userId`, whoever registered it before (another account signed in on it). */
  register(userId: number, platform: DevicePlatform, token: string): Promise<void>;
  forget(userId: number, platform: DevicePlatform, token: string): Promise<void>;
}
export const DeviceRegistry = Symbol.for('DeviceRegistry');

function device(input: { platform?: RawParam; token?: RawParam }): { platform: DevicePlatform; token: string } {
  const platform = requiredText(input.platform, 'platform').toLowerCase();
  if (!(DEVICE_PLATFORMS as readonly string[]).includes(platform)) {
    throw new InvalidInput('platform', `platform must be one of ${DEVICE_PLATFORMS.join(', ')}`);
  }
  const token = requiredText(input.token, 'token').trim();
  if (token === '' || token.length > 255) throw new InvalidInput('token', 'token must be 1 to 255 characters');
  return { platform: platform as DevicePlatform, token };
}

/** `POST /devices` and `DELETE /devices`: the caller's push devices. Idempotent both ways. */
export class ManageDevices {
  constructor(private readonly devices: DeviceRegistry) {}

  async register(actor: Actor, input: { platform?: RawParam; token?: RawParam }): Promise<void> {
    const user = requireUser(actor);
    const { platform, token } = device(input);
    await this.devices.register(user.id, platform, token);
  }

  async forget(actor: Actor, input: { platform?: RawParam; token?: RawParam }): Promise<void> {
    const user = requireUser(actor);
    const { platform, token } = device(input);
    await this.devices.forget(user.id, platform, token);
  }
}
