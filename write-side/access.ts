// Who is asking: every command and query takes the viewer and confines what it reads and
// changes to what the viewer may see, so that no route can forget it (HTTP-CONTRACT.md,
// "Authentication and permissions"). A verified token's principal is a viewer as it is.
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
