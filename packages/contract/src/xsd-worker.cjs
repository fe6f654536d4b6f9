'use strict';
// Worker thread for src/xsd-runner.ts: runs libxml2's xmllint (xmllint-wasm) once per job, reusing one compiled
// WebAssembly module and the schema files it was started with. xmllint-wasm's own validateXML starts a worker and
// compiles the module on every call (about 40 ms); this keeps a validation to a few milliseconds.
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const packageDir = dirname(require.resolve('xmllint-wasm/package.json'));
// The Emscripten factory. Loading the file also registers xmllint-wasm's own message handler, which ignores
// every message that does not carry its 'xmllint-wasm' tag, so it stays idle here.
const createXmllint = require(join(packageDir, 'xmllint-node.js'));
const compiled = new WebAssembly.Module(readFileSync(join(packageDir, 'xmllint.wasm')));
const schemaFiles = workerData.files;

/** The xmllint module needs 256 pages (16 MiB) to start; it may grow to 1 GiB for large bodies. */
const initialPages = 256;
const maximumPages = 16384;

function run(job) {
  return new Promise((resolve) => {
    let stderr = '';
    let done = false;
    const finish = (exitCode) => {
      if (done) return;
      done = true;
      resolve({ erpcertXsdJob: job.id, exitCode, stderr });
    };
    createXmllint({
      inputFiles: [...schemaFiles, { fileName: job.fileName, contents: job.xml }],
      arguments: ['--schema', job.schema, '--noout', job.fileName],
      print() {},
      printErr(text) {
        stderr += `${text}\n`;
      },
      onExit: finish,
      onAbort(reason) {
        stderr += `libxml2 aborted: ${reason}\n`;
        finish(-1);
      },
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(compiled, imports).then(
          (instance) => receive(instance, compiled),
          (error) => {
            stderr += `cannot instantiate xmllint.wasm: ${error}\n`;
            finish(-1);
          },
        );
        return {};
      },
      wasmMemory: new WebAssembly.Memory({ initial: initialPages, maximum: maximumPages }),
    }).catch((error) => {
      if (error && error.name === 'ExitStatus') finish(error.status);
      else {
        stderr += `xmllint failed: ${error}\n`;
        finish(-1);
      }
    });
  });
}

parentPort.on('message', (job) => {
  if (job && typeof job.erpcertXsdJob === 'number') {
    run({ id: job.erpcertXsdJob, fileName: job.fileName, xml: job.xml, schema: job.schema }).then((result) =>
      parentPort.postMessage(result),
    );
  }
});
