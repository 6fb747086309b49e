// SQL that the embedded adapters share.

/**
 * A LIMIT bound at each run, as the embedded stores write it: `LIMIT +?`, never `LIMIT ?`.
 *
 * SQLite (3.53, as better-sqlite3 12 bundles it) reads a bare bound LIMIT as a constant when it
 * plans a statement, and so marks the statement to be planned again whenever that parameter is
 * bound anew. better-sqlite3 binds every parameter at every run, so each run of a statement
 * with `LIMIT ?` compiled it again: 44% of a simple keyset read's time under perf, 4.3 µs against
 * 1.8 µs a run, and more for a page of the views, whose statement is longer. The unary plus makes
 * it an expression that the planner does not read, and the statement is compiled once.
 */
export const BOUND_LIMIT = 'LIMIT +?';
