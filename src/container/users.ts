import { ContainerModule } from 'inversify';
import { DeviceRegistry, ManageDevices } from '../application/devices/devices.js';
import { DomainEvents } from '../application/events.js';
import { Clock, PasswordHasher, UnitOfWork } from '../application/ports.js';
import { ReplyReadModel, TopicReadModel, UserReadModel } from '../application/read-models.js';
import { ListActiveUsers, ListBlockedUsers } from '../application/users/community.js';
import { CreateUser } from '../application/users/create-user.js';
import { BlockNode, BlockUser, ChangeRole, FollowUser, ShowUser } from '../application/users/manage-users.js';
import { ListFollows, ListUserFavorites, ListUserReplies, ListUserTopics } from '../application/users/user-lists.js';
import { NodeRepository } from '../domain/nodes/node-repository.js';
import { UserRepository } from '../domain/users/user-repository.js';
import { CommonPasswords } from '../domain/users/password.js';
import { SqlDeviceRegistry } from '../adapters/persistence/repositories/devices.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { provide, SqlRunner, useCaseBinder } from './bind.js';

/** Users: accounts, profiles and their lists, following and blocking, roles, and their push devices. */
export const usersModule = new ContainerModule(({ bind }) => {
  provide(bind, DeviceRegistry, (sql: Sql) => new SqlDeviceRegistry(sql), [SqlRunner]);

  const useCase = useCaseBinder(bind);
  useCase(CreateUser, [UserRepository, PasswordHasher, CommonPasswords, DomainEvents, UnitOfWork, Clock]);
  useCase(ShowUser, [UserReadModel]);
  useCase(FollowUser, [UserRepository, DomainEvents, UnitOfWork]);
  useCase(ListUserTopics, [UserReadModel, TopicReadModel]);
  useCase(ListUserFavorites, [UserReadModel, TopicReadModel]);
  useCase(ListUserReplies, [UserReadModel, ReplyReadModel]);
  useCase(ListFollows, [UserReadModel]);
  useCase(ChangeRole, [UserRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(BlockNode, [UserRepository, NodeRepository]);
  useCase(BlockUser, [UserRepository]);
  useCase(ListActiveUsers, [UserReadModel, Clock]);
  useCase(ListBlockedUsers, [UserReadModel]);
  useCase(ManageDevices, [DeviceRegistry]);
});
