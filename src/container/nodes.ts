import { ContainerModule } from 'inversify';
import { DomainEvents } from '../application/events.js';
import { CreateNode, CreateSection, SetNodeHidden, SetNodeSection } from '../application/nodes/manage-nodes.js';
import { SetNodeAccess } from '../application/nodes/node-access.js';
import { Clock, UnitOfWork } from '../application/ports.js';
import { NodeRepository } from '../domain/nodes/node-repository.js';
import { SectionRepository } from '../domain/nodes/section-repository.js';
import { useCaseBinder } from './bind.js';

/** Nodes: making them, hiding them and grouping them in sections (reading them is the node read model's; blocking one, a user's act). */
export const nodesModule = new ContainerModule(({ bind }) => {
  const useCase = useCaseBinder(bind);
  useCase(CreateNode, [NodeRepository, SectionRepository, DomainEvents, UnitOfWork, Clock, SetNodeAccess]);
  useCase(SetNodeHidden, [NodeRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(CreateSection, [SectionRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(SetNodeSection, [NodeRepository, SectionRepository, DomainEvents, UnitOfWork, Clock]);
});
