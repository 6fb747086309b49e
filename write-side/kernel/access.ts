// Who is asking: every command and query takes the viewer and confines what it reads and
// changes to what the viewer may see, so that no route can forget it (HTTP-CONTRACT.md,
// "Authentication and permissions"). A verified token's principal is a viewer as it is.

/** Every scope a token may carry (HTTP-CONTRACT "Authentication and permissions"). */
export const SCOPES = [
  'orders:read',
  'orders:write',
  'payments:write',
  'shipments:write',
  'exports:write',
  'audit:read',
  'catalogue:read',
  'catalogue:write',
  'stock:read',
  'stock:write',
  'customers:read',
  'customers:write',
  'customers:erase',
  'accounts:admin',
  'refunds:write',
  'returns:write',
  'webhooks:admin',
] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ['admin', 'staff', 'fulfilment', 'auditor', 'customer'] as const;
export type Role = (typeof ROLES)[number];

/** The scopes a token the service issues carries for each role; a `customer` account's token also carries its customer_id. */
export const ROLE_SCOPES: { readonly [R in Role]: readonly Scope[] } = {
  admin: SCOPES,
  staff: ['orders:read', 'orders:write', 'payments:write', 'refunds:write', 'returns:write', 'exports:write', 'catalogue:read', 'catalogue:write', 'stock:read', 'stock:write', 'customers:read', 'customers:write'],
  fulfilment: ['orders:read', 'shipments:write', 'returns:write', 'stock:read', 'stock:write', 'catalogue:read'],
  auditor: ['orders:read', 'audit:read', 'exports:write', 'catalogue:read', 'stock:read', 'customers:read'],
  customer: ['orders:read', 'orders:write', 'catalogue:read', 'customers:read', 'customers:write'],
};

export interface Viewer {
  /** The token's subject: the principal that owns jobs and idempotency keys. */
  readonly sub: string;
  readonly scopes: ReadonlySet<string>;
  /** Set on a customer's own token: it sees and changes only that customer's resources. */
  readonly customerId: string | null;
}

/** A customer token sees only its own customer's resources; staff tokens see every customer's. */
export function sees(viewer: Viewer, customerId: string): boolean {
  return viewer.customerId === null || viewer.customerId === customerId;
}

/** True for a token that is not a customer's: what belongs to no single customer is for staff only. */
export function isStaff(viewer: Viewer): boolean {
  return viewer.customerId === null;
}

/** Jobs belong to the principal that started them: its `sub` and its customer together. */
export function owns(viewer: Viewer, owner: { readonly owner: string; readonly customerId: string | null }): boolean {
  return owner.owner === viewer.sub && owner.customerId === viewer.customerId;
}

/** An auditor reads any principal's jobs; only staff may audit (a customer's token never does). */
export function auditsJobs(viewer: Viewer): boolean {
  return isStaff(viewer) && viewer.scopes.has('audit:read');
}

/** The viewer of the service's own work (seeding, tools, benchmarks): staff, with no scopes of its own. */
export function serviceViewer(sub: string): Viewer {
  return { sub, scopes: new Set(), customerId: null };
}
