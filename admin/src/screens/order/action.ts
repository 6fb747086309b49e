// What the order page gives each of its forms: the order, the form's Idempotency-Key, and how an
// answer is shown (a notice and the order read again, or the problem's own words).
import type { Schemas } from '../../api';

export type Order = Schemas['Order'];

/** Shows the answer; true when it was a success. */
export type Done = (result: { error?: unknown; response: Response }, what: string) => Promise<boolean>;

export interface FormProps {
  readonly order: Order;
  /** One per opened form: a retry of the same submission is the same request. */
  readonly idempotencyKey: string;
  readonly done: Done;
  /** A refusal the form itself finds, before asking the service. */
  readonly refuse: (message: string) => void;
}
