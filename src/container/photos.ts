import { ContainerModule } from 'inversify';
import { UploadPhoto } from '../application/photos/upload-photo.js';
import { Clock, FileTypes, SecretGenerator, UploadStorage } from '../application/ports.js';
import { FolderStorage } from '../adapters/storage/folder-storage.js';
import { PhotoRouteUseCases } from '../adapters/http/routes/photos.js';
import type { Config } from '../config.js';
import { AppConfig, provide, record, useCaseBinder } from './bind.js';

/** Photos: where uploads are kept (one folder storage, which the HTTP adapter also serves from) and uploading. */
export const photosModule = new ContainerModule(({ bind }) => {
  provide(bind, FolderStorage, (config: Config) => new FolderStorage(config.uploadsDir, config.publicUrl), [AppConfig]);
  bind(UploadStorage).toService(FolderStorage);

  const useCase = useCaseBinder(bind);
  useCase(UploadPhoto, [UploadStorage, FileTypes, SecretGenerator, Clock]);

  record<PhotoRouteUseCases>(bind, PhotoRouteUseCases, { uploadPhoto: UploadPhoto });
});
