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
