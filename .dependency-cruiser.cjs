// Boundaries of the house (STYLE.md, point 9). Run by `npm run boundaries` in CI.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'The domains are plain functions: no adapters, no I/O, no other layer, no packages.',
      severity: 'error',
      from: { path: '^write-side/(orders|jobs)/' },
      to: { pathNot: ['^write-side/(orders|jobs)/', '^write-side/event-store\\.ts$', '^write-side/errors\\.ts$'] },
    },
    {
      name: 'adapters-only-from-the-composition-root',
      comment: 'Only bootstrap/ (and tests and benchmarks) pick adapters; everything else talks to ports.',
      severity: 'error',
      from: { path: '^(write-side|read-side|projections|workers|api)/', pathNot: '/adapters/' },
      to: { path: '/adapters/' },
    },
    {
      name: 'api-is-http-only',
      comment: 'api/ reaches the stores through ports and services, never the composition root.',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: '^bootstrap/' },
    },
    {
      name: 'write-side-knows-no-readers',
      severity: 'error',
      from: { path: '^write-side/' },
      to: { path: '^(read-side|projections|workers|api|bootstrap)/' },
    },
    {
      name: 'read-side-knows-no-http',
      severity: 'error',
      from: { path: '^(read-side|projections|workers)/' },
      to: { path: '^(api|bootstrap)/' },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
