#!/usr/bin/env bash
# Checks a signed erpcert report folder with openssl, jq, base64 and sha256sum: no erpcert code involved.
# Usage: openssl-verify.sh REPORT_DIR PUBLIC_KEY.pem   (exit 0: signature and every subject digest hold)
set -euo pipefail
dir=${1:?usage: openssl-verify.sh REPORT_DIR PUBLIC_KEY.pem}
pub=${2:?usage: openssl-verify.sh REPORT_DIR PUBLIC_KEY.pem}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
att="$dir/attestation.intoto.jsonl"

# the envelope's parts: payload type, payload, signature (ECDSA: ASN.1 DER; Ed25519: 64 raw bytes)
type=$(jq -r .payloadType "$att")
jq -r .payload "$att" | base64 -d >"$work/payload.json"
jq -r '.signatures[0].sig' "$att" | base64 -d >"$work/sig.bin"

# what was signed: the DSSE pre-authentication encoding "DSSEv1 <len type> <type> <len payload> <payload>"
{
  printf 'DSSEv1 %d %s %d ' "$(printf %s "$type" | wc -c)" "$type" "$(wc -c <"$work/payload.json")"
  cat "$work/payload.json"
} >"$work/pae.bin"

if openssl pkey -pubin -in "$pub" -noout -text | grep -q '^ED25519'; then
  openssl pkeyutl -verify -pubin -inkey "$pub" -rawin -in "$work/pae.bin" -sigfile "$work/sig.bin"
else
  openssl dgst -sha256 -verify "$pub" -signature "$work/sig.bin" "$work/pae.bin"
fi

# the signed statement's subjects: each report file by SHA-256
jq -e '._type == "https://in-toto.io/Statement/v1"' "$work/payload.json" >/dev/null
jq -r '.subject[] | "\(.digest.sha256)  \(.name)"' "$work/payload.json" | (cd "$dir" && sha256sum --strict -c -)
