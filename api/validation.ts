// Request validation with ajv, from the schemas the OpenAPI document is built of. Each area
// validates against its own schemas (api/<area>/schemas.ts) and the shared ones (api/schemas.ts),
// which it passes to validators(): so this module needs no registry of areas (api/areas.ts imports
// the areas' operations, which make their validators as they load).
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FieldError } from '../write-side/kernel/errors.js';
import { validationFailed } from './problem.js';
import { TEXT_PATTERN, type SchemaSet } from './schemas.js';

const DOCUMENT_ID = 'order-service-api';
const MAX_ERRORS = 20;

function compiler(schemas: SchemaSet, options: { coerceTypes: boolean }) {
  let ajv: Ajv2020 | undefined;
  return (name: string): ValidateFunction => {
    ajv ??= documentOf(schemas, options);
    return ajv.compile({ $ref: `${DOCUMENT_ID}#/components/schemas/${name}` });
  };
}

function documentOf(schemas: SchemaSet, options: { coerceTypes: boolean }): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    coerceTypes: options.coerceTypes,
    useDefaults: options.coerceTypes,
    formats: { uuid: true, 'date-time': true, uri: true },
  });
  // The schemas live where the OpenAPI document has them, so their $refs read the same in both.
  ajv.addKeyword('components');
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas } });
  return ajv;
}

export function toFieldErrors(errors: readonly ErrorObject[] | null | undefined, base = ''): FieldError[] {
  const seen = new Set<string>();
  const result: FieldError[] = [];
  for (const e of errors ?? []) {
    let pointer = base + e.instancePath;
    if (e.keyword === 'required') pointer += `/${String(e.params.missingProperty)}`;
    if (e.keyword === 'additionalProperties') pointer += `/${String(e.params.additionalProperty)}`;
    const message =
      e.keyword === 'additionalProperties'
        ? 'is not allowed'
        : e.keyword === 'pattern' && e.params.pattern === TEXT_PATTERN
          ? 'must hold visible text, without control characters, line or paragraph separators, bidirectional controls or unpaired surrogates'
          : (e.message ?? 'is invalid');
    const key = `${pointer} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ pointer, message });
    if (result.length === MAX_ERRORS) break;
  }
  return result;
}

/**
 * The validators of request bodies and queries against a set of schemas: an area's own with the
 * shared ones ({ ...sharedSchemas, ...orderSchemas }), whose names they take, typed. One ajv
 * document each for bodies and queries, made at the first validator.
 */
export function validators<Schemas extends SchemaSet>(schemas: Schemas) {
  const bodies = compiler(schemas, { coerceTypes: false });
  const queries = compiler(schemas, { coerceTypes: true });
  return {
    bodyValidator: <T>(name: keyof Schemas & string) => bodyValidator<T>(bodies, name),
    queryValidator: <T>(name: keyof Schemas & string) => queryValidator<T>(schemas, queries, name),
  };
}

/** A validator that returns the typed value or throws a 400 validation-failed problem. */
function bodyValidator<T>(bodies: (name: string) => ValidateFunction, name: string): (value: unknown) => T {
  const validate = bodies(name);
  return (value) => {
    if (!validate(value)) throw validationFailed(toFieldErrors(validate.errors));
    return value as T;
  };
}

/** Query strings: values are coerced to the schema's types and defaults filled in. Repeated parameters are refused. */
function queryValidator<T>(schemas: SchemaSet, queries: (name: string) => ValidateFunction, name: string): (query: Record<string, string | string[] | undefined>) => T {
  const validate = queries(name);
  const properties = (schemas[name] as { properties?: Record<string, { type?: string }> }).properties ?? {};
  const integers = new Set(Object.keys(properties).filter((key) => properties[key]!.type === 'integer'));
  return (query) => {
    const repeated: FieldError[] = [];
    // fromEntries defines own members, so even a parameter named __proto__ reaches the schema.
    const copy: Record<string, unknown> = Object.fromEntries(
      Object.entries(query).map(([key, value]) => {
        if (Array.isArray(value)) repeated.push({ pointer: `/${key}`, message: 'must be given once' });
        // Only plain decimal digits count as an integer: no 0x10, 1e1, 5.0 or padding.
        if (integers.has(key) && typeof value === 'string' && !/^-?\d{1,15}$/.test(value)) return [key, { notAnInteger: value }];
        return [key, value];
      }),
    );
    if (repeated.length > 0) throw validationFailed(repeated);
    if (!validate(copy)) throw validationFailed(toFieldErrors(validate.errors));
    return copy as T;
  };
}
