import type { Sql } from '../database/sql.js';
import type { DevicePlatform, DeviceRegistry } from '../../../application/devices/devices.js';

export class SqlDeviceRegistry implements DeviceRegistry {
  constructor(private readonly sql: Sql) {}

  async register(userId: number, platform: DevicePlatform, token: string): Promise<void> {
    await this.sql.all(
      `insert into devices (user_id, platform, token) values ($1, $2, $3)
       on conflict (platform, token) do update set user_id = excluded.user_id, updated_at = now()`,
      [userId, platform, token],
    );
  }

  async forget(userId: number, platform: DevicePlatform, token: string): Promise<void> {
    await this.sql.all('delete from devices where user_id = $1 and platform = $2 and token = $3', [userId, platform, token]);
  }

  async removeAllFor(userId: number): Promise<void> {
    await this.sql.all('delete from devices where user_id = $1', [userId]);
  }
}
