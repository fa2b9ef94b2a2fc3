import { ContainerModule } from 'inversify';
import { Wire } from '../adapters/presentation/wire.js';
import type { Config } from '../config.js';
import { AppConfig, provide } from './bind.js';

/** The wire shapes, with this service's public URL: one Wire for the API, forumctl and webhook payloads. */
export const presentationModule = new ContainerModule(({ bind }) => {
  provide(bind, Wire, (config: Config) => new Wire(config.publicUrl), [AppConfig]);
});
