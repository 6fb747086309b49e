// The jobs' view, which the workers read.
import type { ExportJob, Job } from '../../write-side/jobs/types.js';

/** A job as the workers see it: its state folded from its stream, with the revision it includes. */
export type JobView = Job & { readonly revision: number };
export type ExportJobView = ExportJob & { readonly revision: number };
