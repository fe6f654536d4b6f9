/**
 * What a person does to live runs, in one place for the API (live-routes.ts) and the pages (pages/live-page-routes.ts):
 * start a run of a saved target, cancel one, rerun one rule, one area or every FAIL of a stored run. Refusals are
 * {@link ApiError}s (or the saved targets' {@link TargetInputError}s) that each side shows in its own form.
 */
import { ApiError } from '../api/api-error.js';
import type { HubStore } from '../store/hub-store.js';
import type { Job, JobQueue, RunSettings } from './job-queue.js';
import type { SavedTargets } from './saved-targets.js';

export const PROFILES = ['gate', 'full', 'strict'];
export const ENGINES = ['autocannon', 'k6'];
export const MAX_LOAD_SECONDS = 600;
export const GLOB = /^[A-Za-z0-9_.*-]{1,120}$/;
const AREA = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)?$/;

/**
 * A load scenario a live run may name: `erpcert load --scenario` accepts it. The hub never imports the CLI: `erpcert
 * hub` hands it the list (HubOptions.loadScenarios), as it hands it the executor.
 */
export interface LoadScenarioChoice {
  readonly name: string;
  /** A short description, shown beside the name on the start form. */
  readonly description: string;
}

const SCENARIO_NAME = /^[a-z0-9-]{1,80}$/;

/** The `scenario` of a load start: one of `known` when the hub was given the list, else a name erpcert load may know. */
function loadScenario(value: unknown, known: readonly LoadScenarioChoice[] | undefined): string {
  if (known && known.length > 0) {
    const names = known.map((k) => k.name);
    if (typeof value === 'string' && names.includes(value)) return value;
    throw new ApiError(
      400,
      value === undefined || value === ''
        ? `scenario is required: one of ${names.join(', ')}`
        : `scenario must be one of ${names.join(', ')}, got ${JSON.stringify(String(value).slice(0, 80))}`,
    );
  }
  if (typeof value !== 'string' || !SCENARIO_NAME.test(value))
    throw new ApiError(400, 'scenario is required: the name of a load scenario (erpcert load --scenario)');
  return value;
}

/**
 * A start request's settings, checked. `scenarios`: the load scenarios the hub's executor runs (an unknown one is
 * refused with the valid names); without the list, any well-formed name passes on to `erpcert load`, which refuses
 * what it does not know.
 */
export function runSettings(b: Record<string, unknown>, scenarios?: readonly LoadScenarioChoice[]): RunSettings {
  if (b.kind === 'conformance') {
    const profile = b.profile ?? 'gate';
    if (typeof profile !== 'string' || !PROFILES.includes(profile))
      throw new ApiError(400, `profile must be one of ${PROFILES.join(', ')}`);
    const only = b.only ?? [];
    if (!Array.isArray(only) || only.length > 500 || !only.every((g) => typeof g === 'string' && GLOB.test(g)))
      throw new ApiError(400, 'only must be a list of rule ids or globs (letters, digits, . _ - *), at most 500');
    return { kind: 'conformance', profile, only: only as string[] };
  }
  if (b.kind === 'load') {
    const scenario = loadScenario(b.scenario, scenarios);
    const engine = b.engine ?? 'autocannon';
    if (typeof engine !== 'string' || !ENGINES.includes(engine))
      throw new ApiError(400, `engine must be one of ${ENGINES.join(', ')}`);
    const d = b.durationSeconds ?? 30;
    if (!Number.isInteger(d) || (d as number) < 1 || (d as number) > MAX_LOAD_SECONDS)
      throw new ApiError(400, `durationSeconds must be a whole number from 1 to ${MAX_LOAD_SECONDS}`);
    return { kind: 'load', scenario, engine: engine as 'autocannon' | 'k6', durationSeconds: d as number };
  }
  throw new ApiError(400, 'kind must be conformance or load');
}

export interface LiveActionsOptions {
  readonly store: HubStore;
  readonly queue: JobQueue;
  readonly targets: SavedTargets;
  /** Called after a run is queued (the local pool looks for work at once). */
  readonly queued?: () => void;
  /** The load scenarios the executor runs (HubOptions.loadScenarios); unknown: any well-formed name. */
  readonly loadScenarios?: readonly LoadScenarioChoice[];
}

export class LiveActions {
  constructor(private readonly o: LiveActionsOptions) {}

  /** A start request's settings, checked ({@link runSettings} with the hub's load scenarios). */
  settings(b: Record<string, unknown>): RunSettings {
    return runSettings(b, this.o.loadScenarios);
  }

  /** Queues a run of a saved target (404 when it is not saved). */
  async start(targetId: number, settings: RunSettings, parentRunId: number | null = null): Promise<Job> {
    await this.o.targets.getOrThrow(targetId);
    const j = await this.o.queue.enqueue(targetId, settings, parentRunId);
    this.o.queued?.();
    return j;
  }

  /** A queued run is cancelled at once; a running one is asked to stop (its worker aborts the executor). */
  async cancel(jobId: number): Promise<Job> {
    const j = await this.o.queue.get(jobId);
    if (!j) throw new ApiError(404, `there is no live run ${jobId}`);
    const r = await this.o.queue.requestCancel(j.id);
    if (r === 'ended') throw new ApiError(409, `live run ${j.id} has ended (${j.state}): there is nothing to cancel`);
    return (await this.o.queue.get(j.id)) ?? j;
  }

  /**
   * Whether a stored run can be rerun from the hub, and why not: a conformance run of a saved target. Undefined
   * when it can.
   */
  async whyNoRerun(runId: number): Promise<{ status: 404 | 409; message: string } | undefined> {
    const run = await this.o.store.run(runId);
    if (!run) return { status: 404, message: `there is no run ${runId}` };
    if (run.kind !== 'conformance')
      return { status: 409, message: `run ${runId} is a load run: only conformance rules are rerun` };
    if (!(await this.o.targets.get(run.targetId)))
      return {
        status: 409,
        message: `run ${runId}'s target is not saved in the hub: save it (Saved targets, or POST /api/v1/saved-targets) to rerun`,
      };
    return undefined;
  }

  /**
   * A new live run of the saved target of a stored conformance run, its parent that run: `{ rule }` one rule,
   * `{ area }` one area (`AREA.*`), `{ fails: true }` every rule that FAILed. The profile is the parent's.
   */
  async rerun(runId: number, what: Record<string, unknown>): Promise<Job> {
    const why = await this.whyNoRerun(runId);
    if (why) throw new ApiError(why.status, why.message);
    const { store } = this.o;
    const run = (await store.run(runId))!;
    const from = await store.db.selectFrom('jobs').select('settings').where('run_id', '=', runId).executeTakeFirst();
    const profile = from ? (JSON.parse(from.settings) as RunSettings & { profile?: string }).profile : run.profile;
    let only: string[];
    // what is given must be right: a wrong rule or area is refused, never passed over for the next choice
    if (what.rule !== undefined) {
      if (typeof what.rule !== 'string' || !GLOB.test(what.rule) || what.rule.includes('*'))
        throw new ApiError(400, 'rule must be one rule id (letters, digits, . _ -), not a glob');
      only = [what.rule];
    } else if (what.area !== undefined) {
      if (typeof what.area !== 'string' || !AREA.test(what.area))
        throw new ApiError(400, 'area must be an area id such as REST.QUERY');
      only = [`${what.area}.*`];
    } else if (what.fails === true) {
      const rows = await store.db
        .selectFrom('rule_verdicts')
        .select('rule_id')
        .where('run_id', '=', runId)
        .where('verdict', '=', 'FAIL')
        .orderBy('rule_id')
        .execute();
      only = rows.map((r) => r.rule_id);
      if (only.length === 0) throw new ApiError(409, `run ${runId} has no FAIL to rerun`);
    } else
      throw new ApiError(400, 'say what to rerun: { "rule": "REST.X.Y" }, { "area": "REST.X" } or { "fails": true }');
    return this.start(
      run.targetId,
      { kind: 'conformance', profile: PROFILES.includes(profile ?? '') ? (profile as string) : 'gate', only },
      runId,
    );
  }
}
