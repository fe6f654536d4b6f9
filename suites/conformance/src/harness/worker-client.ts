/**
 * One `@erpcert/client` per test worker, for both APIs: Basic credentials with session reuse (log in once,
 * then `Cookie: HSESSION`), the run's pacing, and the exchange observer wired to the worker's recorder.
 */
import { type ClientConfig, createClient, type ErpClient, type Exchange } from '@erpcert/client';
import { parseTargetGuard } from '@erpcert/contract';
import { ExchangeRecorder } from './recorder.js';
import { requestLogger } from './request-log.js';
import { type TargetConfig, targetFromEnv } from './target.js';

/** What one worker shares between its tests. */
export interface WorkerSession {
  readonly target: TargetConfig;
  readonly client: ErpClient;
  readonly recorder: ExchangeRecorder;
}

/** The client configuration for a target: session reuse, pacing, the recorder as observer. */
export function clientConfigFor(target: TargetConfig, recorder: ExchangeRecorder): ClientConfig {
  return {
    baseUrl: target.baseUrl,
    ...(target.user !== undefined ? { auth: { user: target.user, password: target.password ?? '' } } : {}),
    useSession: target.user !== undefined,
    companyIn: target.companyIn,
    ...(target.compcode !== undefined ? { compcode: target.compcode } : {}),
    portalPath: target.portalPath,
    ...(target.usercode !== undefined ? { usercode: target.usercode } : {}),
    ...(target.portalcc !== undefined ? { portalcc: target.portalcc } : {}),
    ...(target.pace !== undefined ? { pacing: { maxPerSecond: target.pace } } : {}),
    // throttled answers (429/503 with Retry-After) are waited out within these bounds, never judged
    retryAfter: {
      ...(target.maxRetries !== undefined ? { maxRetries: target.maxRetries } : {}),
      ...(target.maxRetryWaitMs !== undefined ? { maxWaitMs: target.maxRetryWaitMs } : {}),
    },
    onExchange: withRequestLog(recorder.observe),
    // a report keeps a few KiB of each body; the recorder cuts further
    maxRecordedBodyBytes: 64 * 1024,
    // a hub's live run: every connection's address is checked when it is made (no DNS rebinding after the hub's check)
    ...(target.targetGuard !== undefined ? { connectGuard: parseTargetGuard(target.targetGuard) } : {}),
  };
}

/** The recorder's observer, followed by the dev-only request log when `ERPCERT_REQUEST_LOG` asks for it. */
function withRequestLog(observe: (e: Exchange) => void): (e: Exchange) => void {
  const log = requestLogger();
  return log
    ? (e) => {
        observe(e);
        log(e);
      }
    : observe;
}

const KEY = Symbol.for('erpcert.conformance.workerSession');
type Holder = { [KEY]?: WorkerSession };

/**
 * The worker's session, created on first use from the TARGET_ENV variables. Kept on `globalThis`, so
 * test files that share a worker share one client (and its HSESSION) even when vitest re-imports modules.
 */
export function workerSession(): WorkerSession {
  const holder = globalThis as Holder;
  let session = holder[KEY];
  if (!session) {
    const target = targetFromEnv();
    const recorder = new ExchangeRecorder();
    session = { target, recorder, client: createClient(clientConfigFor(target, recorder)) };
    holder[KEY] = session;
  }
  return session;
}
