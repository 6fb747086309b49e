// The read side's expected failures, mapped to problem details by api/problem.ts.
import { DomainError } from '../write-side/errors.js';

/** The projected views did not reach a Consistency-Token's position in time; the caller may retry. */
export class ViewsBehind extends DomainError {
  readonly code = 'unavailable';
  constructor(readonly views: string) {
    super(`The ${views} have not caught up with that write yet; retry shortly.`);
  }
}
