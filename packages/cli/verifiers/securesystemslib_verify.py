"""Checks a signed erpcert report folder with securesystemslib (PyPI) alone: no erpcert code involved.

Usage: python securesystemslib_verify.py REPORT_DIR PUBLIC_KEY.pem
Exit 0 when the DSSE envelope verifies with the key, its payload is an in-toto Statement v1 and every subject
file has the SHA-256 the statement lists; 1 otherwise, with the reason.
"""

import hashlib
import json
import sys
from pathlib import Path

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat, load_pem_public_key
from securesystemslib.dsse import Envelope
from securesystemslib.exceptions import VerificationError
from securesystemslib.signer import SSlibKey

IN_TOTO = "application/vnd.in-toto+json"
STATEMENT_V1 = "https://in-toto.io/Statement/v1"


def main(folder: Path, pub: Path) -> int:
    public = load_pem_public_key(pub.read_bytes())
    # erpcert's keyid: the SHA-256 of the public key's DER SubjectPublicKeyInfo
    keyid = hashlib.sha256(public.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)).hexdigest()
    key = SSlibKey.from_crypto(public, keyid=keyid)
    lines = [l for l in (folder / "attestation.intoto.jsonl").read_text().splitlines() if l.strip()]
    if len(lines) != 1:
        print(f"want one envelope, found {len(lines)}")
        return 1
    envelope = Envelope.from_dict(json.loads(lines[0]))
    try:
        envelope.verify([key], 1)
    except VerificationError as err:
        print(f"signature: {err}")
        return 1
    if envelope.payload_type != IN_TOTO:
        print(f"payload type {envelope.payload_type}, want {IN_TOTO}")
        return 1
    statement = json.loads(envelope.payload)
    if statement.get("_type") != STATEMENT_V1 or not isinstance(statement.get("predicate"), dict):
        print("the payload is not an in-toto Statement v1")
        return 1
    bad = 0
    for subject in statement["subject"]:
        path = folder / subject["name"]
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "(missing)"
        ok = digest == subject["digest"]["sha256"]
        bad += not ok
        print(f"{subject['name']}: {'OK' if ok else 'CHANGED ' + digest}")
    print(f"signed by {keyid}, predicate {statement['predicateType']}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
