/**
 * The dependency rule of the hexagon as a path rule (checked in `npm test`):
 * the domain imports nothing outside itself; the application only the domain and zod (the one vocabulary for
 * values that come in: pure, no I/O); adapters never import the CLI, and the core never imports an adapter.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain imports nothing outside src/domain (no node_modules, no node: built-ins)',
      severity: 'error',
      from: { path: '^dist/src/domain/' },
      to: { pathNot: '^dist/src/domain/' },
    },
    {
      name: 'application-depends-on-domain-only',
      comment: 'src/application imports only src/application, src/domain and zod',
      severity: 'error',
      from: { path: '^dist/src/application/' },
      to: { pathNot: ['^dist/src/(application|domain)/', '^node_modules/zod/'] },
    },
    {
      name: 'core-never-imports-adapters',
      severity: 'error',
      from: { path: '^dist/src/(domain|application)/' },
      to: { path: '^dist/(src/adapters|cli)/' },
    },
    {
      name: 'adapters-stay-apart',
      comment: 'the HTTP, persistence and storage adapters import inward, never each other',
      severity: 'error',
      from: { path: '^dist/src/adapters/(http|persistence|storage)/' },
      to: { path: '^dist/src/adapters/(http|persistence|storage)/', pathNot: '^dist/src/adapters/$1/' },
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
  },
};
