// Boundaries of the house (STYLE.md, point 9). Run by `npm run boundaries` in CI; each rule has a
// test in tests/boundaries/ that plants a violation in a scratch copy and sees this check fail.

// The database drivers, wherever the package manager put them (node_modules may be a link).
const DRIVERS = '(^|/)node_modules/(better-sqlite3|mongodb|@eventstore/db-client)/';

// The pure modules of every area, by their names: a new write-side/<area>/ folder is covered as it is.
const DOMAIN = '^write-side/(?!kernel/|adapters/)[^/]+/(types|decider|codec|rules|reservations)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        "An area's domain (its types, decider, codec and rules, in every write-side/<area>/ folder, a new one included, and the stock's reservations map) is plain " +
        'functions: nothing it reaches, directly or through another module, does I/O. It may use the other areas\' domains, ' +
        "the kernel's pure modules (the event types of the port, the errors, addresses, the write context); no package, no " +
        'Node module, no other layer.',
      severity: 'error',
      from: { path: DOMAIN },
      to: {
        reachable: true,
        pathNot: [DOMAIN, '^write-side/kernel/(event-store|errors|address|write-context|access)\\.ts$'],
      },
    },
    {
      name: 'drivers-only-in-adapters',
      comment: 'Only an adapter (a module under */adapters/) talks to a database driver.',
      severity: 'error',
      from: { pathNot: ['^[^/]+/adapters/', '(^|/)node_modules/'] },
      to: { path: DRIVERS },
    },
    {
      name: 'adapters-stay-on-their-side',
      comment:
        "The write side's adapters and the read side's never import each other; what both need lives in shared/adapters/.",
      severity: 'error',
      from: { path: '^(write-side|read-side)/adapters/' },
      to: { path: '^(write-side|read-side)/adapters/', pathNot: '^$1/adapters/' },
    },
    {
      name: 'adapters-only-from-the-composition-root',
      comment: 'Only bootstrap/ (and tests and benchmarks) pick adapters; everything else talks to ports.',
      severity: 'error',
      from: { path: '^(write-side|read-side|projections|workers|api)/', pathNot: '/adapters/' },
      to: { path: '/adapters/' },
    },
    {
      name: 'api-reaches-only-use-cases',
      comment:
        'api/ calls use cases (write-side services, read-side queries) and uses their types and errors; it never reaches ' +
        'below them (codecs, deciders, the command handler, adapters), nor projections/, workers/ or the composition root.',
      severity: 'error',
      from: { path: '^api/' },
      to: {
        dependencyTypes: ['local'],
        path: [
          '^(?!(api|write-side|read-side)/)', // projections/, workers/, bootstrap/, shared/, any other folder
          '/adapters/',
          '^write-side/[^/]+/(codec|decider)\\.ts$',
          '^write-side/kernel/command-handler\\.ts$',
        ],
      },
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
