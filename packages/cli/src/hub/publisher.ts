/**
 * `--publish URL` of `conform` and `load`: read before the run (a missing token stops it before it touches the
 * target), used after the report folder is written.
 */
import { TOKEN_ENV } from '@erpcert/hub/constants';
import type { CommandIO } from '../command.js';
import type { OptionValues } from '../options.js';
import { hubBase, publishFolder } from './publish-client.js';

export interface ReportPublisher {
  /** Publishes `dir`; 0 when the hub holds it now, 2 when not (the reason printed). */
  publish(dir: string): Promise<number>;
}

export function openReportPublisher(
  values: OptionValues,
  io: CommandIO,
  command: string,
): ReportPublisher | undefined | 'refused' {
  const say = (line: string) => io.err.write(`erpcert ${command}: ${line}\n`);
  const url = values.publish;
  if (typeof url !== 'string') return undefined;
  try {
    hubBase(url);
  } catch (err) {
    say(`--publish: ${(err as Error).message}. Nothing was run.`);
    return 'refused';
  }
  const token = io.env[TOKEN_ENV];
  if (!token) {
    say(`--publish needs the hub's token in ${TOKEN_ENV}. Nothing was run.`);
    return 'refused';
  }
  const meta = {
    build: typeof values['publish-build'] === 'string' ? values['publish-build'] : undefined,
    label: typeof values['publish-label'] === 'string' ? values['publish-label'] : undefined,
  };
  return {
    async publish(dir) {
      const done = await publishFolder(url, dir, token, meta);
      if (!done.ok) {
        say(`not published: ${done.message}`);
        return 2;
      }
      say(
        `published to the hub as run ${done.runId} (${done.created ? 'new' : 'already there'}; ${done.signature}): ${done.runUrl}`,
      );
      return 0;
    },
  };
}

/** The flags `conform` and `load` add for publishing. */
export const publishFlags = [
  {
    name: 'publish',
    type: 'string',
    arg: 'URL',
    help: `publish the report folder to an erpcert hub at the end (token from ${TOKEN_ENV})`,
  },
  {
    name: 'publish-build',
    type: 'string',
    arg: 'LABEL',
    help: 'with --publish: the build (a commit or version label)',
  },
  {
    name: 'publish-label',
    type: 'string',
    arg: 'LABEL',
    help: 'with --publish: a label for the run (nightly, release)',
  },
] as const;
