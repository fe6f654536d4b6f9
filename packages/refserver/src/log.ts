/** Where the server's log lines go: one line of text, no trailing newline (a leaf: imports nothing). */
export type LogLine = (line: string) => void;

/** The default log: one line to stderr. */
export const stderrLog: LogLine = (line) => {
  process.stderr.write(`${line}\n`);
};
