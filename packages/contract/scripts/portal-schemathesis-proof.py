"""Runs schemathesis (a generic OpenAPI fuzzer) on a portal spec against a recording server and reports which
documented operation each request it sent would select. Manual proof for specs/README.md, not part of CI.

    python3 -m venv /tmp/st-venv && /tmp/st-venv/bin/pip install schemathesis pyyaml
    /tmp/st-venv/bin/python packages/contract/scripts/portal-schemathesis-proof.py specs/portal-action.openapi.yaml 3

Arguments: the spec to fuzz, then --max-examples per operation. Requests are matched against the precise spec
(specs/portal-action.openapi.yaml) by the routing rule of specs/README.md.
"""

import http.server
import json
import subprocess
import sys
import tempfile
import threading
import urllib.parse as up
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
PRECISE = ROOT / "specs" / "portal-action.openapi.yaml"
RECEIVED: list[dict] = []


class Recorder(http.server.BaseHTTPRequestHandler):
    def _record(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        RECEIVED.append({"method": self.command, "target": self.path, "type": self.headers.get("Content-Type"),
                         "body": body[:200].decode("latin-1")})
        out = b'<data><res errstr=""/></data>'
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    do_GET = do_POST = _record

    def log_message(self, *args) -> None:
        pass


def operations() -> list[tuple[str, str, dict]]:
    spec = yaml.safe_load(PRECISE.read_text())
    out = []
    for key, item in spec["paths"].items():
        fragment = dict(up.parse_qsl(key.split("#", 1)[1]))
        for method, op in item.items():
            out.append((op["operationId"], method.upper(), fragment))
    return out


def selects(ops, method: str, query: dict) -> list[str]:
    """The routing rule: `action` equals the fragment's (absent for lists), other fragment pairs all present."""
    hits = [(op_id, len(frag)) for op_id, m, frag in ops
            if m == method and query.get("action") == frag.get("action")
            and all(query.get(k) == v for k, v in frag.items())]
    best = max((n for _, n in hits), default=0)
    return [op_id for op_id, n in hits if n == best]


def main() -> None:
    spec, examples = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "3"
    server = http.server.HTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    run = subprocess.run([str(Path(sys.executable).parent / "schemathesis"), "run", str(Path(spec).resolve()), "-u", url,
                          "--phases", "examples,fuzzing", "--max-examples", examples, "-w", "1",
                          "-c", "not_a_server_error", "--mode", "positive", "--auth", "u:p", "--seed", "1"],
                         capture_output=True, text=True, cwd=tempfile.mkdtemp())  # its cache stays out of the repo
    server.shutdown()
    ops = operations()
    portal = [r for r in RECEIVED if up.urlsplit(r["target"]).path == "/WebErpAPI.hal"]
    leaked = [r for r in RECEIVED if "#" in r["target"] or "%23" in up.urlsplit(r["target"]).path]
    reached: dict[str, int] = {op_id: 0 for op_id, _, _ in ops}
    unselected = 0
    for r in portal:
        query = dict(up.parse_qsl(up.urlsplit(r["target"]).query, keep_blank_values=True))
        hit = selects(ops, r["method"], query)
        if len(hit) == 1:
            reached[hit[0]] += 1
        else:
            unselected += 1
    print(json.dumps({
        "schemathesis_exit": run.returncode,
        "requests_to_portal_path": len(portal),
        "fragments_sent": len(leaked),
        "requests_selecting_no_single_operation": unselected,
        "operations": len(ops),
        "operations_never_reached": sorted(k for k, v in reached.items() if v == 0),
    }, indent=2))


if __name__ == "__main__":
    main()
