/**
 * The dependency rule of the hexagon as path rules, checked on the TypeScript sources of src and cli, type-only
 * imports included (`npm run lint:deps`, needs no build; first thing in `npm test`): the domain imports nothing
 * outside itself; the application only the domain and zod (the one vocabulary for values that come in: pure,
 * no I/O); the core never imports an adapter, the composition root (src/container.ts and its modules in
 * src/container/), the server (src/server) or the CLI; no adapter imports the composition root or the server;
 * the server never imports the container; config.ts never imports the application; each adapter folder imports
 * inward and never another adapter folder, except the shared src/adapters/presentation, which only the delivery
 * adapters (the JSON API, the pages, the mail composer) import; the API and the pages never import each other;
 * nothing goes round in a circle.
 *
 * dependency-cruiser reads TypeScript with the compiler's JavaScript API, which TypeScript 7 no longer has, or
 * with swc: the sources are parsed with swc (a dev dependency), which keeps `import type` as an import.
 * `tsPreCompilationDeps` asks the same of the compiler, should dependency-cruiser ever find one it can use.
 */

// Without swc, dependency-cruiser would skip every .ts file and report no violation among 0 modules: fail loudly.
const swc = require('@swc/core');

// The views are TSX (JSX in TypeScript), which dependency-cruiser 17 asks swc to read as plain TypeScript (its
// parse options have no `tsx`; a TODO there): a .tsx file is read with swc's TSX syntax instead, `import type`
// kept as ever. dependency-cruiser calls this very object's parseFileSync (it imports @swc/core's exports).
const parseFileSync = swc.parseFileSync;
swc.parseFileSync = (file, options) => parseFileSync(file, String(file).endsWith('.tsx') ? { ...options, tsx: true } : options);

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain imports nothing outside src/domain (no node_modules, no node: built-ins)',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'application-depends-on-domain-only',
      comment: 'src/application imports only src/application, src/domain and zod',
      severity: 'error',
      from: { path: '^src/application/' },
      to: { pathNot: ['^src/(application|domain)/', '^node_modules/zod/'] },
    },
    {
      name: 'core-never-imports-adapters',
      comment: 'src/domain and src/application never import an adapter, the composition root, the server or the CLI',
      severity: 'error',
      from: { path: '^src/(domain|application)/' },
      to: { path: ['^src/adapters/', '^src/(config|container|main)\\.ts$', '^src/(container|server)/', '^cli/'] },
    },
    {
      name: 'adapters-never-import-the-composition-root',
      comment:
        'adapters are given what they need; only the composition root (and the entry points) know the container, ' +
        'and the server (src/server: processes, the listener, the one app made of the adapters) composes adapters, ' +
        'never the other way round',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: ['^src/(container|main)\\.ts$', '^src/(container|server)/'] },
    },
    {
      name: 'the-server-does-not-know-the-container',
      comment: 'src/server is handed what it runs (by main.ts and the container); it never reaches into the container',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: ['^src/(container|main)\\.ts$', '^src/container/'] },
    },
    {
      name: 'config-does-not-import-the-application',
      comment: 'src/config.ts reads the environment and owns its defaults; the application is given what it needs',
      severity: 'error',
      from: { path: '^src/config\\.ts$' },
      to: { path: '^src/application/' },
    },
    {
      name: 'src-never-imports-the-cli',
      comment: 'forumctl (cli/) uses src, never the other way round',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^cli/' },
    },
    {
      name: 'adapters-stay-apart',
      comment:
        'each adapter folder (api, web, mail, persistence, presentation, storage, system, webhooks) imports inward, ' +
        'never another adapter folder, but the shared presentation (below); what two adapters share otherwise ' +
        'belongs in the application (a port) or the composition root',
      severity: 'error',
      from: { path: '^src/adapters/([^/]+)/' },
      to: { path: '^src/adapters/', pathNot: ['^src/adapters/$1/', '^src/adapters/presentation/'] },
    },
    {
      name: 'presentation-serves-delivery',
      comment:
        'src/adapters/presentation (the wire shapes, the words of each language, the HTML renderer, locale ' +
        'negotiation) is shared by the adapters that show things to people and programs: the JSON API, the pages ' +
        'and the mail composer (and forumctl); the others (persistence, storage, system, webhooks) never need it',
      severity: 'error',
      from: { path: '^src/adapters/', pathNot: '^src/adapters/(api|web|mail|presentation)/' },
      to: { path: '^src/adapters/presentation/' },
    },
    {
      name: 'api-and-web-stay-apart',
      comment:
        'the JSON API (src/adapters/api) and the pages (src/adapters/web) never import each other: src/server ' +
        'composes them into one app (the pages declare their routes in the document through a RouteDeclarer it hands them)',
      severity: 'error',
      from: { path: '^src/adapters/(api|web)/' },
      to: { path: '^src/adapters/(api|web)/', pathNot: '^src/adapters/$1/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    parser: 'swc',
    tsPreCompilationDeps: true,
  },
};
