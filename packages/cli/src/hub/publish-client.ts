/**
 * Sends a report folder to a hub (`POST /api/v1/runs`, one multipart part per file named by its path), with the
 * token as a bearer credential. The folder is read with the hub's own reader (paths checked, symlinks refused).
 * The token is never part of what this returns or prints.
 */

export interface PublishMeta {
  readonly build?: string;
  readonly label?: string;
}

export type PublishOutcome =
  | {
      readonly ok: true;
      readonly created: boolean;
      readonly runId: number;
      readonly runUrl: string;
      readonly signature: string;
    }
  | { readonly ok: false; readonly message: string };

/** Reading limits on the publishing side: generous; the hub applies its own. */
const READ_LIMITS = { maxRunBytes: 1024 * 1024 * 1024, maxFiles: 100_000, maxRatio: 1_000_000 };

/** The hub's base URL from what a user typed (`http://h:8480`, `http://h:8480/`, `http://h:8480/api/v1`). */
export function hubBase(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`--hub ${JSON.stringify(url)} is not a URL (e.g. http://127.0.0.1:8480)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(`--hub must be an http or https URL, not ${u.protocol}`);
  if (u.username || u.password)
    throw new Error('--hub must not carry credentials: the token comes from ERPCERT_HUB_TOKEN');
  return `${u.origin}${u.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}`;
}

export async function publishFolder(
  hub: string,
  dir: string,
  token: string,
  meta: PublishMeta = {},
  fetchImpl: typeof fetch = fetch,
): Promise<PublishOutcome> {
  // loaded when used: the hub's reader brings its store's modules along
  const { readRunFolder } = await import('@erpcert/hub');
  let files: ReturnType<typeof readRunFolder>;
  try {
    files = readRunFolder(dir, READ_LIMITS);
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  if (!files.has('results.json'))
    return { ok: false, message: `${dir} holds no results.json: is it a report folder of erpcert conform or load?` };
  const form = new FormData();
  for (const [path, bytes] of files) form.append('file', new Blob([new Uint8Array(bytes)]), path);
  if (meta.build) form.append('build', meta.build);
  if (meta.label) form.append('label', meta.label);
  const base = hubBase(hub);
  let res: Response;
  try {
    res = await fetchImpl(`${base}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return { ok: false, message: `the hub at ${base} cannot be reached: ${cause ?? (err as Error).message}` };
  }
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    // a proxy's HTML error page: the status says enough
  }
  if (res.status !== 200 && res.status !== 201)
    return {
      ok: false,
      message: `the hub refused it (${res.status}): ${typeof body.error === 'string' ? body.error : res.statusText}`,
    };
  const run = body.run as { id: number; signature?: { text?: string } } | undefined;
  if (!run || typeof run.id !== 'number') return { ok: false, message: `the hub answered ${res.status} without a run` };
  return {
    ok: true,
    created: body.created === true,
    runId: run.id,
    runUrl: `${base}/api/v1/runs/${run.id}`,
    signature: run.signature?.text ?? 'unknown',
  };
}
