import { ContainerModule } from 'inversify';
import { Authenticate } from '../application/tokens/access-tokens.js';
import { HttpUseCases } from '../adapters/http/app.js';
import { AdminRouteUseCases } from '../adapters/http/routes/admin.js';
import { AuthorizeRouteUseCases } from '../adapters/http/routes/authorize.js';
import { DeviceRouteUseCases } from '../adapters/http/routes/devices.js';
import { NodeRouteUseCases } from '../adapters/http/routes/nodes.js';
import { NotificationRouteUseCases } from '../adapters/http/routes/notifications.js';
import { OAuthRouteUseCases } from '../adapters/http/routes/oauth.js';
import { PhotoRouteUseCases } from '../adapters/http/routes/photos.js';
import { ReplyRouteUseCases } from '../adapters/http/routes/replies.js';
import { SearchRouteUseCases } from '../adapters/http/routes/search.js';
import { TopicRouteUseCases } from '../adapters/http/routes/topics.js';
import { UserRouteUseCases } from '../adapters/http/routes/users.js';
import { record } from './bind.js';

/** The HTTP adapter: what its routers call, each router's record bound in its feature's module. */
export const httpModule = new ContainerModule(({ bind }) => {
  record<HttpUseCases>(bind, HttpUseCases, {
    authenticate: Authenticate,
    oauth: OAuthRouteUseCases,
    authorize: AuthorizeRouteUseCases,
    topics: TopicRouteUseCases,
    replies: ReplyRouteUseCases,
    notifications: NotificationRouteUseCases,
    nodes: NodeRouteUseCases,
    users: UserRouteUseCases,
    devices: DeviceRouteUseCases,
    photos: PhotoRouteUseCases,
    search: SearchRouteUseCases,
    admin: AdminRouteUseCases,
  });
});
