// The jobs' view, which the export workers read.
import type { Job } from '../../write-side/jobs/types.js';

/** A job as the export workers see it: its state folded from its stream, with the revision it includes. */
export type JobView = Job & { readonly revision: number };
