import type { CertificationPredicate, PublicKeyInfo, VerifyOutcome } from '@erpcert/runs';

const ALGORITHMS = { 'ecdsa-p256': 'ECDSA P-256', ed25519: 'Ed25519' } as const;

function certificate(p: CertificationPredicate, key: PublicKeyInfo): string[] {
  const t = p.totals;
  const pct = p.coverage.of === 0 ? '' : ` (${Math.round((100 * p.coverage.judged) / p.coverage.of)}%)`;
  const counts = Object.entries(t)
    .filter(([k]) => k !== 'rules')
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const selection = [
    `profile ${p.run.profile}`,
    `rules ${p.run.only ?? 'all'}`,
    ...(p.run.shard ? [`shard ${p.run.shard}`] : []),
    `seed ${p.run.seed ?? 'random'}`,
  ].join(', ');
  const load = p.load
    ? `${p.load.engine} run ${p.load.startedAt}, outcome ${p.load.outcome}: ${p.load.scenarios
        .map((s) => `${s.scenario} ${s.verdict}`)
        .join(', ')} (results.json sha256 ${p.load.resultsSha256})`
    : 'none attested';
  return [
    `  target       ${p.target.url}${p.target.embedded ? ' (the embedded reference server, not a vendor ERP)' : ''}`,
    `  outcome      ${p.run.outcome}${p.run.interrupted ? ' (interrupted)' : ''}: ${t.rules} rules, ${counts}`,
    `  coverage     ${p.coverage.judged} of ${p.coverage.of} documented observable rules judged${pct}`,
    `  erpcert      ${p.erpcert.version}`,
    `  spec sha256  ${p.spec.sha256} (REST ${p.spec.versions.rest}, portal ${p.spec.versions.portal}; rules.yaml ${p.spec.ruleCatalogue.sha256})`,
    `  selection    ${selection}`,
    `  run          ${p.run.startedAt} to ${p.run.finishedAt}, tag ${p.run.runTag}`,
    `  load         ${load}`,
    `  signed by    ${key.fingerprint} (${ALGORITHMS[key.algorithm]})`,
  ];
}

/** What `erpcert verify` prints: the certificate when every check held, else each failed check by file. */
export function verifyText(dir: string, outcome: VerifyOutcome, key: PublicKeyInfo): string {
  const lines: string[] = [];
  if (outcome.ok && outcome.predicate) {
    lines.push(`erpcert certificate: VERIFIED ${dir}`, ...certificate(outcome.predicate, key));
  } else {
    lines.push(`erpcert certificate: NOT VERIFIED ${dir}`);
    for (const f of outcome.failures) lines.push(`  FAIL ${f.file}: ${f.check}: ${f.message}`);
  }
  for (const n of outcome.notes) lines.push(`  note: ${n}`);
  return `${lines.join('\n')}\n`;
}
