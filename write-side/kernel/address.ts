// A postal address, and the merge patch that changes one: orders and customers keep them alike.
import { ValidationFailed, type FieldError } from './errors.js';

export interface Address {
  readonly name: string;
  readonly line1: string;
  readonly line2: string | null;
  readonly city: string;
  readonly postalCode: string;
  readonly region: string | null;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
}

/**
 * The address of an order whose customer's personal data was erased: the key that sealed it is
 * destroyed, so every member reads as null (write-side/personal-data/).
 */
export type ErasedAddress = { readonly [K in keyof Address]: null };

/**
 * An RFC 7396 merge patch of an address: a member absent stays, a member set to null is removed
 * (only line2 and region may be), any other member replaces the current one.
 */
export type AddressPatch = { readonly [K in keyof Address]?: Address[K] | null };

const REQUIRED_ADDRESS_MEMBERS = ['name', 'line1', 'city', 'postalCode', 'country'] as const;
const OPTIONAL_ADDRESS_MEMBERS = ['line2', 'region'] as const;

/** RFC 7396 on the flat address, and the rules the merged address must keep. */
export function mergeAddress(current: Address | ErasedAddress, patch: AddressPatch): Address {
  const errors: FieldError[] = [];
  // After an erasure every current member is null: the patch must then give a whole address.
  const pick = <K extends keyof Address>(key: K): Address[K] => (patch[key] === undefined ? current[key] : patch[key]) as Address[K];
  for (const key of REQUIRED_ADDRESS_MEMBERS) {
    const value = pick(key) as string | null;
    if (typeof value !== 'string' || value.trim() === '') errors.push({ pointer: `/address/${key}`, message: 'is required and cannot be removed' });
  }
  const country = pick('country');
  if (typeof country === 'string' && !/^[A-Z]{2}$/.test(country)) errors.push({ pointer: '/address/country', message: 'must be an ISO 3166-1 alpha-2 code' });
  for (const key of OPTIONAL_ADDRESS_MEMBERS) {
    const value = pick(key);
    if (value !== null && typeof value !== 'string') errors.push({ pointer: `/address/${key}`, message: 'must be text or null' });
  }
  if (errors.length > 0) throw new ValidationFailed(errors, 'The address would not be valid after this change.');
  return {
    name: pick('name'), line1: pick('line1'), line2: pick('line2') ?? null, city: pick('city'),
    postalCode: pick('postalCode'), region: pick('region') ?? null, country: pick('country'),
  };
}
