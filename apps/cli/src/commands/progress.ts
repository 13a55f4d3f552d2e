import cliProgress from 'cli-progress';
import type { ReplayProgress } from '#app/event-store';

/** A bar on a terminal; on a pipe (CI, logs) a plain line every few seconds and at the end. */
export function replayProgress(out: NodeJS.WriteStream = process.stdout): {
  update(p: ReplayProgress): void;
  stop(): void;
} {
  if (out.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: '{phase} [{bar}] {percentage}% {value}/{total} events, {rate} ev/s', stream: out },
      cliProgress.Presets.shades_classic,
    );
    const started = Date.now();
    let begun = false;
    return {
      update(p) {
        const rate = Math.round(p.done / Math.max(0.001, (Date.now() - started) / 1000));
        if (!begun) bar.start(p.total, 0, { phase: p.phase, rate });
        begun = true;
        bar.setTotal(p.total);
        bar.update(p.done, { phase: p.phase, rate });
      },
      stop: () => bar.stop(),
    };
  }
  let last = 0;
  return {
    update(p) {
      if (Date.now() - last < 2_000 && p.phase !== 'swap') return;
      last = Date.now();
      out.write(`${p.phase}: ${p.done}/${p.total} events\n`);
    },
    stop: () => undefined,
  };
}
