import { raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../database/sql.js';
import { couldBeLogin, User } from '../../../domain/users/user.js';
import { EmailTaken, LoginTaken, type UserRepository } from '../../../domain/users/user-repository.js';
import { changed } from './changed.js';

export class MikroOrmUserRepository implements UserRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly sql: Sql,
  ) {}

  findById(id: number): Promise<User | null> {
    return this.em.findOne(User, { id });
  }

  async findByLogin(login: string): Promise<User | null> {
    if (!couldBeLogin(login)) return null;
    return this.em.findOne(User, { [raw('lower(login)')]: login.toLowerCase() } as object);
  }

  async findByLoginOrEmail(loginOrEmail: string): Promise<User | null> {
    const key = loginOrEmail.toLowerCase();
    return this.em.findOne(User, { $or: [{ [raw('lower(login)')]: key }, { [raw('lower(email)')]: key }] } as object);
  }

  async isTaken(login: string, email: string): Promise<{ login: boolean; email: boolean }> {
    const rows = await this.sql.all<{ login: boolean; email: boolean }>(
      'select exists(select 1 from users where lower(login) = lower($1)) as login, exists(select 1 from users where lower(email) = lower($2)) as email',
      [login, email],
    );
    return rows[0]!;
  }

  async add(user: User): Promise<void> {
    try {
      await this.em.persist(user).flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        const constraint = (error as { constraint?: string }).constraint;
        if (constraint === 'users_login_key') throw new LoginTaken();
        if (constraint === 'users_email_key') throw new EmailTaken();
      }
      throw error;
    }
  }

  async remove(user: User): Promise<void> {
    await this.em.remove(user).flush();
  }

  async reserveId(): Promise<number> {
    const rows = await this.sql.all<{ id: number }>("select nextval('users_id_seq')::int as id");
    return rows[0]!.id;
  }

  async blockNode(userId: number, nodeId: number): Promise<void> {
    await this.sql.all('insert into node_blocks (user_id, node_id) values ($1, $2) on conflict do nothing', [userId, nodeId]);
  }

  async unblockNode(userId: number, nodeId: number): Promise<void> {
    await this.sql.all('delete from node_blocks where user_id = $1 and node_id = $2', [userId, nodeId]);
  }

  async blockUser(userId: number, blockedUserId: number): Promise<void> {
    await this.sql.all('insert into user_blocks (user_id, blocked_user_id) values ($1, $2) on conflict do nothing', [
      userId,
      blockedUserId,
    ]);
  }

  async unblockUser(userId: number, blockedUserId: number): Promise<void> {
    await this.sql.all('delete from user_blocks where user_id = $1 and blocked_user_id = $2', [userId, blockedUserId]);
  }

  follow(followerId: number, followeeId: number): Promise<boolean> {
    return changed(this.sql, 'insert into user_follows (follower_id, followee_id) values ($1, $2) on conflict do nothing', [
      followerId,
      followeeId,
    ]);
  }

  unfollow(followerId: number, followeeId: number): Promise<boolean> {
    return changed(this.sql, 'delete from user_follows where follower_id = $1 and followee_id = $2', [followerId, followeeId]);
  }
}
