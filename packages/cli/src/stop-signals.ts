/**
 * SIGTERM and SIGINT for a command that serves until it is stopped (`serve`, `hub`): listened for from the start,
 * so that a stop during start-up still closes cleanly; `stopped()` resolves with the signal (at once if one came
 * already); `detach()` stops listening.
 */
export interface StopSignals {
  stopped(): Promise<NodeJS.Signals>;
  detach(): void;
}

export function listenForStop(): StopSignals {
  let signal: NodeJS.Signals | undefined;
  let wake: ((s: NodeJS.Signals) => void) | undefined;
  const stop = (s: NodeJS.Signals) => {
    signal = s;
    wake?.(s);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return {
    stopped: () => (signal !== undefined ? Promise.resolve(signal) : new Promise((resolve) => (wake = resolve))),
    detach: () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    },
  };
}
