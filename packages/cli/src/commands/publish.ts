import { resolve } from 'node:path';
import { TOKEN_ENV } from '@erpcert/hub/constants';
import type { Command } from '../command.js';
import { hubBase, publishFolder } from '../hub/publish-client.js';
import { UsageError } from '../options.js';

/**
 * `erpcert publish DIR... --hub URL`: sends report folders of `conform` and `load` to a hub. Says, folder by folder,
 * which runs are new and which were there already. The token comes from ERPCERT_HUB_TOKEN and is never printed.
 */
export const publish: Command = {
  name: 'publish',
  summary: 'send report folders to an erpcert hub (exit 0 all stored, 2 one was refused or the hub unreachable)',
  positionals: [{ name: 'DIR', help: 'a report folder of erpcert conform or erpcert load', repeats: true }],
  flags: [
    { name: 'hub', type: 'string', arg: 'URL', help: 'the hub, e.g. http://127.0.0.1:8480' },
    { name: 'build', type: 'string', arg: 'LABEL', help: 'the build the runs belong to (a commit or version label)' },
    { name: 'label', type: 'string', arg: 'LABEL', help: 'a label for the runs (nightly, release)' },
  ],
  details: [
    `The token comes from ${TOKEN_ENV}: an API token of your organisation with the publish scope (an org admin makes`,
    "one on the hub's Organisations page); it is never printed.",
    'A folder published twice is one run on the hub: the second time it says "already there".',
  ].join('\n'),
  async run(values, positionals, io) {
    const hub = values.hub;
    if (typeof hub !== 'string') throw new UsageError('--hub URL is required (e.g. --hub http://127.0.0.1:8480)');
    try {
      hubBase(hub);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    if (positionals.length === 0)
      throw new UsageError('name at least one report folder: erpcert publish DIR... --hub URL');
    const token = io.env[TOKEN_ENV];
    if (!token) throw new UsageError(`the hub's token is missing: set ${TOKEN_ENV}`);
    const meta = {
      build: typeof values.build === 'string' ? values.build : undefined,
      label: typeof values.label === 'string' ? values.label : undefined,
    };
    let added = 0;
    let there = 0;
    let refused = 0;
    for (const dir of positionals) {
      const done = await publishFolder(hub, resolve(io.cwd, dir), token, meta);
      if (!done.ok) {
        refused++;
        io.err.write(`erpcert publish: ${dir}: ${done.message.split(resolve(io.cwd, dir)).join(dir)}\n`);
        continue;
      }
      if (done.created) added++;
      else there++;
      io.out.write(
        `${done.created ? 'new          ' : 'already there'}  run ${done.runId}  ${dir}  ${done.signature}  ${done.runUrl}\n`,
      );
    }
    io.out.write(`${added} new, ${there} already there${refused ? `, ${refused} refused` : ''}\n`);
    return refused > 0 ? 2 : 0;
  },
};
