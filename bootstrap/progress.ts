// Progress of a long job: a bar redrawn in place on a terminal, a plain line now and then otherwise.

export interface ProgressOutput {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export interface Progress {
  /** `done` units so far, `fraction` of the whole from 0 to 1. */
  update(done: number, fraction: number): void;
  finish(): void;
}

export function progressReporter(
  label: string,
  output: ProgressOutput,
  options: { unit?: string; now?: () => number; everyMs?: number } = {},
): Progress {
  const now = options.now ?? (() => performance.now());
  const unit = options.unit ?? 'events';
  const everyMs = options.everyMs ?? 2000;
  const started = now();
  let lastLine = -Infinity;
  let drawn = false;

  const describe = (done: number, fraction: number) => {
    const seconds = Math.max((now() - started) / 1000, 0.001);
    const left = fraction > 0 ? (seconds / fraction) * (1 - fraction) : NaN;
    const eta = Number.isFinite(left) ? `${Math.ceil(left)} s left` : 'time left unknown';
    return `${(fraction * 100).toFixed(1).padStart(5)}%  ${done.toLocaleString('en-US')} ${unit}  ${Math.round(done / seconds).toLocaleString('en-US')} ${unit}/s  ${eta}`;
  };

  return {
    update(done, fraction) {
      if (output.isTTY) {
        const width = 30;
        const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
        output.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${describe(done, fraction)}  `);
        drawn = true;
      } else if (now() - lastLine >= everyMs) {
        lastLine = now();
        output.write(`${label}: ${describe(done, fraction)}\n`);
      }
    },
    finish() {
      if (drawn) output.write('\n');
    },
  };
}
