// The API versions served (HTTP-CONTRACT "Every response", "Changes since 2026-11-01"). The
// version is a request header, never in the URL; a request without one is served under the
// deprecated version until its sunset, so that clients written before 2026-12-01 keep working.

export const CURRENT_API_VERSION = '2027-01-01';
/** The version before the current one: the catalogue's prices and the store's other areas, without `partially_shipped`. */
export const PREVIOUS_API_VERSION = '2026-12-01';
export const DEPRECATED_API_VERSION = '2026-11-01';
export type ApiVersion = typeof CURRENT_API_VERSION | typeof PREVIOUS_API_VERSION | typeof DEPRECATED_API_VERSION;
export const SUPPORTED_API_VERSIONS: readonly ApiVersion[] = [CURRENT_API_VERSION, PREVIOUS_API_VERSION, DEPRECATED_API_VERSION];
/** What a request that names no version is served under. */
export const DEFAULT_API_VERSION: ApiVersion = DEPRECATED_API_VERSION;

/** RFC 9745: the instant the version was deprecated, as a structured-field date. */
const DEPRECATED_SINCE = `@${Date.UTC(2026, 11, 1) / 1000}`;
/** RFC 8594: after this the deprecated version is no longer served. */
const SUNSET = new Date(Date.UTC(2027, 5, 1)).toUTCString();

const HEADERS: { readonly [V in ApiVersion]: Readonly<Record<string, string>> } = {
  [CURRENT_API_VERSION]: { 'Api-Version': CURRENT_API_VERSION },
  [PREVIOUS_API_VERSION]: { 'Api-Version': PREVIOUS_API_VERSION },
  [DEPRECATED_API_VERSION]: { 'Api-Version': DEPRECATED_API_VERSION, Deprecation: DEPRECATED_SINCE, Sunset: SUNSET },
};

/** The version a request's `Api-Version` header asks for: the default when it names none, null when it names one not served. */
export function requestedVersion(header: string): ApiVersion | null {
  if (header === '') return DEFAULT_API_VERSION;
  return (SUPPORTED_API_VERSIONS as readonly string[]).includes(header) ? (header as ApiVersion) : null;
}

/** The headers of a response served under `version`: Api-Version, and Deprecation and Sunset for the deprecated one. */
export function versionHeaders(version: ApiVersion): Readonly<Record<string, string>> {
  return HEADERS[version];
}

export const VERSION_HEADERS = { deprecation: DEPRECATED_SINCE, sunset: SUNSET } as const;

/**
 * Whether clients of a version know the `partially_shipped` status (2027-01-01): to those that do
 * not, such an order reads as `paid` (HTTP-CONTRACT "Orders after payment"). The rule and the
 * mapping itself (statusFor) live with the orders' reads, which the export worker shares.
 */
export { knowsPartialShipments, statusFor } from '../read-side/orders/status.js';

/**
 * Whether clients of a version know a product's `lowStockThreshold` (2027-01-01). It is accepted
 * and shown under every version (additive); only a PUT that leaves it out differs: under a version
 * that does not know it, the product keeps the threshold it has.
 */
export function knowsLowStockThresholds(version: string): boolean {
  return version >= LOW_STOCK_THRESHOLDS_SINCE;
}

const LOW_STOCK_THRESHOLDS_SINCE = '2027-01-01';
