import { Worker } from 'node:worker_threads';

/** A file handed to libxml2's in-memory file system. */
export interface XsdFile {
  readonly fileName: string;
  readonly contents: string;
}

/** What one xmllint run reported: its exit code and its stderr (libxml2's messages). */
export interface XmllintRun {
  readonly exitCode: number;
  readonly stderr: string;
}

/** The xmllint worker failed (not a validation error: the runner itself broke). */
export class XmllintRunnerError extends Error {
  override readonly name = 'XmllintRunnerError';
}

interface Pending {
  readonly resolve: (run: XmllintRun) => void;
  readonly reject: (error: Error) => void;
}

interface WorkerReply {
  readonly erpcertXsdJob: number;
  readonly exitCode: number;
  readonly stderr: string;
}

/**
 * Runs xmllint (libxml2 compiled to WebAssembly by xmllint-wasm) in one long-lived worker thread that holds the
 * compiled module and the schema files. The worker keeps the process alive only while a run is pending.
 */
export class XmllintRunner {
  readonly #files: readonly XsdFile[];
  readonly #pending = new Map<number, Pending>();
  #worker: Worker | undefined;
  #nextId = 0;

  /** @param files every schema file, made available to xmllint by name (for `xs:include`). */
  constructor(files: readonly XsdFile[]) {
    this.#files = files;
  }

  /** Validates `xml` (named `fileName` in libxml2's messages) against the schema file `schema`. */
  run(schema: string, fileName: string, xml: string): Promise<XmllintRun> {
    const worker = this.#ensureWorker();
    const id = this.#nextId++;
    return new Promise<XmllintRun>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#pending.size === 1) worker.ref();
      worker.postMessage({ erpcertXsdJob: id, schema, fileName, xml });
    });
  }

  /** Stops the worker; later runs start a new one. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#failAll(new XmllintRunnerError('the XSD validator was closed while a validation was running'));
    if (worker) await worker.terminate();
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./xsd-worker.cjs', import.meta.url), {
      workerData: { files: this.#files.map((f) => ({ fileName: f.fileName, contents: f.contents })) },
    });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const pending = this.#pending.get(reply.erpcertXsdJob);
      if (!pending) return;
      this.#pending.delete(reply.erpcertXsdJob);
      if (this.#pending.size === 0) worker.unref();
      pending.resolve({ exitCode: reply.exitCode, stderr: reply.stderr });
    });
    worker.on('error', (error) => {
      if (this.#worker === worker) this.#worker = undefined;
      this.#failAll(new XmllintRunnerError(`the xmllint worker failed: ${error.message}`));
    });
    worker.on('exit', (code) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#failAll(new XmllintRunnerError(`the xmllint worker exited with code ${code}`));
    });
    this.#worker = worker;
    return worker;
  }

  #failAll(error: Error): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(error);
  }
}
