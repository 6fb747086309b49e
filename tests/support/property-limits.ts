// Vitest setup (every test file): a property that fails stops shrinking after a while. Shrinking
// runs the property again and again on smaller counterexamples; a property whose runs are slow,
// or whose counterexample shrinks through thousands of steps, can go on for an hour, and a
// synchronous one never yields to Vitest's test timeout. Past this limit fast-check reports the
// failure with the smallest counterexample found so far. A property that passes is not affected
// unless its own runs outlast the limit, which is under the test timeout (vitest.config.ts).
import * as fc from 'fast-check';

/** How long one property may run, its shrinking included, before fast-check stops it. */
const PROPERTY_TIME_LIMIT_MS = 90_000;

fc.configureGlobal({ ...fc.readConfigureGlobal(), interruptAfterTimeLimit: PROPERTY_TIME_LIMIT_MS });
