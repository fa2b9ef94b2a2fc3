import { z } from 'zod';
import { type Actor, requireUser } from '../actor.js';
import { type RawParam, NOT_BLANK_PATTERN, Text, oneOf, read } from '../inputs.js';

export const DEVICE_PLATFORMS = ['ios', 'android'] as const;
export type DevicePlatform = (typeof DEVICE_PLATFORMS)[number];

/** Where push-notification device tokens are kept: one owner per (platform, token). */
export interface DeviceRegistry {
  /** The device now belongs to `userId`, whoever registered it before (another account signed in on it). */
  register(userId: number, platform: DevicePlatform, token: string): Promise<void>;
  forget(userId: number, platform: DevicePlatform, token: string): Promise<void>;
  /** Forgets every device of a user (the account is left). */
  removeAllFor(userId: number): Promise<void>;
}
export const DeviceRegistry = Symbol.for('DeviceRegistry');

export const DevicePlatformInput = oneOf(DEVICE_PLATFORMS);
/** A push token as the platforms issue them: up to 255 characters. */
export const DeviceTokenInput = Text.pipe(
  z.string().trim().min(1, { error: 'must not be blank' }).max(255, { error: 'must be at most 255 characters' }),
).meta({ pattern: NOT_BLANK_PATTERN, maxLength: 255 });

/** The parameters of `POST /devices` and `DELETE /devices`, as they are read (and documented). */
export const DeviceParams = z.object({ platform: DevicePlatformInput, token: DeviceTokenInput });

function device(input: { platform?: RawParam; token?: RawParam }): { platform: DevicePlatform; token: string } {
  const { platform, token } = DeviceParams.shape;
  return { platform: read(platform, input.platform, 'platform'), token: read(token, input.token, 'token') };
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
