// Decider tests in three lines: given past events, when a command, then the events it decides
// (all of them, in order), or the events matched in part, or the error it throws.
import { expect } from 'vitest';
import type { Decider } from '../../write-side/kernel/command-handler.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** `const given = givenDecider(orderDecider); given(placed).when(pay()).then(paid);` */
export function givenDecider<State, Command, Event>(decider: Decider<State, Command, Event>) {
  return (...history: Event[]) => ({
    when: (command: Command) => {
      const run = () => decider.decide(command, history.reduce(decider.evolve, decider.initialState()));
      return {
        then: (...expected: Event[]) => expect(run()).toEqual(expected),
        /** The same number of events, each matching its partial shape. */
        thenMatches: (...expected: object[]) => expect(run()).toMatchObject(expected),
        thenFails: (type: ErrorClass, fields: object = {}) => {
          const error = (() => {
            try {
              run();
            } catch (e) {
              return e;
            }
            throw new Error('expected the command to fail');
          })();
          expect(error).toBeInstanceOf(type);
          expect(error).toMatchObject(fields);
        },
      };
    },
  });
}
