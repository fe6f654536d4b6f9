import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ATTESTATION_FILE,
  CERTIFICATION_PREDICATE_TYPE,
  IN_TOTO_PAYLOAD_TYPE,
  parseEnvelopeLines,
  readPublicKey,
  readSigningKey,
  SUBJECT_FILES,
  type VerifyOutcome,
  verifyFolder,
} from '@erpcert/runs';
import { describe, expect, it } from 'vitest';
import { certifyFolder } from './certify-folder.js';
import { signEnvelope } from './sign.js';
import { signedFolder, unsignedFolder, writeKeyPair } from './testing.js';

function failed(o: VerifyOutcome): string[] {
  return o.failures.map((f) => `${f.file}: ${f.check}`);
}

/** Any JSON, edited freely to forge the statements of the test cases. */
// biome-ignore lint/suspicious/noExplicitAny: the forged statements reach into any field
type Json = any;

/** Replaces the statement of a signed folder by `edit(statement)`, signed again with the folder's own key. */
function resignStatement(folder: ReturnType<typeof signedFolder>, edit: (s: Json) => void): void {
  const file = join(folder.dir, ATTESTATION_FILE);
  const envelope = parseEnvelopeLines(readFileSync(file, 'utf8'));
  const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
  edit(statement);
  const again = signEnvelope(
    IN_TOTO_PAYLOAD_TYPE,
    Buffer.from(JSON.stringify(statement)),
    readSigningKey(folder.keyFile, {}),
  );
  writeFileSync(file, `${JSON.stringify(again)}\n`);
}

/** Changes one character of a file: the first `from` after its middle becomes `to`. */
function editOneCharacter(file: string): void {
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf('e', Math.floor(text.length / 2));
  expect(at).toBeGreaterThan(0);
  writeFileSync(file, `${text.slice(0, at)}E${text.slice(at + 1)}`);
}

describe('verifyFolder: round trip', () => {
  it.each(['ecdsa-p256', 'ed25519'] as const)('a folder signed with %s verifies with its public key', (alg) => {
    const f = signedFolder(alg);
    const key = readPublicKey(f.pubFile);
    const outcome = verifyFolder(f.dir, key);
    expect(failed(outcome)).toEqual([]);
    expect(outcome.ok).toBe(true);
    expect(outcome.predicate?.rules.find((r) => r.verdict === 'FAIL')).toBeDefined();
    expect(key.fingerprint).toBe(f.fingerprint);
  });

  it('the report header names the signing key; an unsigned folder says it is not signed', () => {
    const unsigned = unsignedFolder();
    expect(readFileSync(join(unsigned, 'summary.md'), 'utf8')).toContain('Signature: not signed');
    expect(readFileSync(join(unsigned, 'report.html'), 'utf8')).toMatch(/id="signature">not signed/);
    const f = signedFolder();
    expect(readFileSync(join(f.dir, 'summary.md'), 'utf8')).toContain(`signed with key ${f.fingerprint} (ECDSA P-256)`);
    expect(readFileSync(join(f.dir, 'report.html'), 'utf8')).toContain(`signed with key ${f.fingerprint}`);
    expect(JSON.parse(readFileSync(join(f.dir, 'results.json'), 'utf8')).attestation.keyFingerprint).toBe(
      f.fingerprint,
    );
  });
});

describe('verifyFolder: tampering', () => {
  it.each(SUBJECT_FILES)('one edited character of %s fails its sha256 check', (name) => {
    const f = signedFolder();
    editOneCharacter(join(f.dir, name));
    const outcome = verifyFolder(f.dir, readPublicKey(f.pubFile));
    expect(outcome.ok).toBe(false);
    expect(failed(outcome)).toContain(`${name}: sha256`);
  });

  it('a FAIL turned into a PASS in results.json fails its digest and the verdict comparison', () => {
    const f = signedFolder();
    const file = join(f.dir, 'results.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const rule = doc.rules.find((r: { verdict: string }) => r.verdict === 'FAIL');
    rule.verdict = 'PASS';
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    expect(failed(verifyFolder(f.dir, readPublicKey(f.pubFile)))).toEqual([
      'results.json: sha256',
      'results.json: verdicts',
    ]);
  });

  it('a folder without attestation is not signed', () => {
    const dir = unsignedFolder();
    const f = signedFolder();
    expect(failed(verifyFolder(dir, readPublicKey(f.pubFile)))).toEqual([`${ATTESTATION_FILE}: signed`]);
  });

  it('a folder signed again with another key fails the signature check with the first key', () => {
    const f = signedFolder();
    const other = writeKeyPair(join(f.root, 'other'));
    certifyFolder(f.dir, readSigningKey(other.keyFile, {}));
    expect(failed(verifyFolder(f.dir, readPublicKey(f.pubFile)))).toEqual([`${ATTESTATION_FILE}: signature`]);
    expect(verifyFolder(f.dir, readPublicKey(other.pubFile)).ok).toBe(true);
  });

  it('a signature over another payload fails (the payload was swapped, the signature kept)', () => {
    const f = signedFolder();
    const file = join(f.dir, ATTESTATION_FILE);
    const envelope = JSON.parse(readFileSync(file, 'utf8'));
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    statement.predicate.totals.FAIL = 0;
    envelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
    writeFileSync(file, `${JSON.stringify(envelope)}\n`);
    expect(failed(verifyFolder(f.dir, readPublicKey(f.pubFile)))).toEqual([`${ATTESTATION_FILE}: signature`]);
  });

  it('an unknown predicate version fails, even when properly signed', () => {
    const f = signedFolder();
    resignStatement(f, (s) => {
      s.predicateType = CERTIFICATION_PREDICATE_TYPE.replace(/v1$/, 'v2');
    });
    const outcome = verifyFolder(f.dir, readPublicKey(f.pubFile));
    expect(failed(outcome)).toEqual([`${ATTESTATION_FILE}: predicate type`]);
    expect(outcome.failures[0]!.message).toContain('/v2');
  });

  it('a predicate that breaks its schema fails', () => {
    const f = signedFolder();
    resignStatement(f, (s) => {
      delete s.predicate.coverage;
    });
    expect(failed(verifyFolder(f.dir, readPublicKey(f.pubFile)))).toEqual([`${ATTESTATION_FILE}: predicate schema`]);
  });

  it('a missing subject file fails, naming it', () => {
    const f = signedFolder();
    rmSync(join(f.dir, 'junit.xml'));
    expect(failed(verifyFolder(f.dir, readPublicKey(f.pubFile)))).toEqual(['junit.xml: present']);
  });

  it('a statement that leaves a report file out fails, naming the file', () => {
    const f = signedFolder();
    resignStatement(f, (s) => {
      s.subject = s.subject.filter((x: { name: string }) => x.name !== 'report.html');
    });
    expect(failed(verifyFolder(f.dir, readPublicKey(f.pubFile)))).toEqual(['report.html: subject']);
  });

  it('predicate verdicts that differ from results.json fail, even when properly signed', () => {
    const f = signedFolder();
    resignStatement(f, (s) => {
      const rule = s.predicate.rules.find((r: { verdict: string }) => r.verdict === 'FAIL');
      rule.verdict = 'PASS';
    });
    const outcome = verifyFolder(f.dir, readPublicKey(f.pubFile));
    expect(failed(outcome)).toEqual(['results.json: verdicts']);
    expect(outcome.failures[0]!.message).toMatch(/attested PASS, results.json FAIL/);
  });

  it('predicate totals and target that differ from results.json fail', () => {
    const f = signedFolder();
    resignStatement(f, (s) => {
      s.predicate.totals.PASS += 1;
      s.predicate.target.url = 'https://other.example.com';
    });
    expect(failed(verifyFolder(f.dir, readPublicKey(f.pubFile)))).toEqual([
      'results.json: target',
      'results.json: totals',
    ]);
  });

  it('a coverage figure that differs from results.json fails', () => {
    const f = signedFolder();
    resignStatement(f, (s) => {
      s.predicate.coverage.judged += 1;
    });
    expect(failed(verifyFolder(f.dir, readPublicKey(f.pubFile)))).toEqual(['results.json: coverage']);
  });

  it('a results.json that breaks its schema fails its schema check, not the verifier', () => {
    const f = signedFolder();
    writeFileSync(join(f.dir, 'results.json'), '{"rules": 3}\n');
    expect(failed(verifyFolder(f.dir, readPublicKey(f.pubFile)))).toEqual([
      'results.json: sha256',
      'results.json: schema',
    ]);
  });

  it("a coverage total that differs from the run's catalogue fails", () => {
    const f = signedFolder();
    resignStatement(f, (s) => {
      s.predicate.coverage.of += 5;
    });
    expect(failed(verifyFolder(f.dir, readPublicKey(f.pubFile)))).toEqual([`${ATTESTATION_FILE}: coverage`]);
  });

  it("with a rule catalogue other than the run's, the coverage total is taken as attested, and verify says so", () => {
    const f = signedFolder();
    resignStatement(f, (s) => {
      s.predicate.spec.ruleCatalogue.sha256 = 'f'.repeat(64);
      s.predicate.coverage.of += 5;
    });
    const outcome = verifyFolder(f.dir, readPublicKey(f.pubFile));
    expect(failed(outcome)).toEqual([]);
    expect(outcome.notes.join('\n')).toMatch(/coverage total was taken from the attestation, not re-derived/);
  });

  it('an envelope that is not JSON fails the envelope check', () => {
    const f = signedFolder();
    writeFileSync(join(f.dir, ATTESTATION_FILE), 'not json\n');
    expect(failed(verifyFolder(f.dir, readPublicKey(f.pubFile)))).toEqual([`${ATTESTATION_FILE}: envelope`]);
  });
});

describe('verifyFolder: expectations', () => {
  const f = signedFolder();
  const key = readPublicKey(f.pubFile);
  const predicate = verifyFolder(f.dir, key).predicate!;
  it.each([
    ['the run spec', { spec: predicate.spec.sha256 }, []],
    ['another spec', { spec: 'b'.repeat(64) }, [`${ATTESTATION_FILE}: --expect-spec`]],
    ['the run version', { version: predicate.erpcert.version }, []],
    ['another version', { version: '9.9.9' }, [`${ATTESTATION_FILE}: --expect-version`]],
    ['the target with a trailing slash', { target: 'https://erp.example.com/' }, []],
    ['another target', { target: 'https://erp.other.com' }, [`${ATTESTATION_FILE}: --expect-target`]],
  ])('%s', (_name, expect_, want) => {
    expect(failed(verifyFolder(f.dir, key, expect_))).toEqual(want);
  });
});
