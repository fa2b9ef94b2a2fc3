import { ContainerModule } from 'inversify';
import { DomainEvents } from '../application/events.js';
import { GroupReadModel } from '../application/read-models.js';
import { ChangeGroupMembers, CreateGroup, DeleteGroup, UpdateGroup } from '../application/groups/manage-groups.js';
import { SetNodeAccess } from '../application/nodes/node-access.js';
import { WritingRights } from '../application/nodes/writing-rights.js';
import { Clock, UnitOfWork } from '../application/ports.js';
import { GroupRepository } from '../domain/groups/group-repository.js';
import { NodeRepository } from '../domain/nodes/node-repository.js';
import { UserRepository } from '../domain/users/user-repository.js';
import { SqlGroupRepository } from '../adapters/persistence/repositories/groups.js';
import { SqlGroupReadModel } from '../adapters/persistence/read-models/groups.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { provide, SqlRunner, useCaseBinder } from './bind.js';

/**
 * Groups and who may read and write where (contract §23): shaping groups, their members and each node's access, and
 * where a person may write, as the pages ask it.
 */
export const groupsModule = new ContainerModule(({ bind }) => {
  const useCase = useCaseBinder(bind);
  provide(bind, GroupRepository, (sql: Sql) => new SqlGroupRepository(sql), [SqlRunner]);
  provide(bind, GroupReadModel, (sql: Sql) => new SqlGroupReadModel(sql), [SqlRunner]);
  useCase(CreateGroup, [GroupRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(UpdateGroup, [GroupRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(DeleteGroup, [GroupRepository, DomainEvents, UnitOfWork]);
  useCase(ChangeGroupMembers, [GroupRepository, UserRepository, DomainEvents, UnitOfWork]);
  useCase(SetNodeAccess, [NodeRepository, GroupRepository, DomainEvents, UnitOfWork]);
  useCase(WritingRights, [NodeRepository, GroupRepository]);
});
