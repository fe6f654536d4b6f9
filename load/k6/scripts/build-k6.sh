#!/usr/bin/env bash
# Builds k6 from source with xk6 into <repo>/tools/bin/k6 (git-ignored). A second run with the same pins does
# nothing. Needs Go and the Go module proxy; nothing else is downloaded.
#
# Pins, and why they are pins rather than @latest:
#  - xk6 v1.4.6: `go install go.k6.io/xk6@latest` needs the proxy's version list, which the module mirror
#    available here refuses (403); a pinned version resolves without it and keeps builds reproducible.
#  - k6 v2.2.0: the newest k6 v2 whose source zip the mirror serves (v2.3.0's is refused).
# Override with XK6_VERSION / K6_VERSION when your proxy has newer ones.
set -euo pipefail

XK6_VERSION="${XK6_VERSION:-v1.4.6}"
K6_VERSION="${K6_VERSION:-v2.2.0}"

repo="$(cd "$(dirname "$0")/../../.." && pwd)"
tools="$repo/tools"
bin="$tools/bin/k6"
stamp="$tools/bin/k6.pins"
want="k6 $K6_VERSION built by xk6 $XK6_VERSION"

# k6 must never try to download extensions on its own
export K6_AUTO_EXTENSION_RESOLUTION=false

if [ -x "$bin" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "k6: $("$bin" version | head -n1) already built at tools/bin/k6 (delete it to rebuild)"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  echo "k6: Go is not installed, so k6 cannot be built from source." >&2
  echo "    Install Go (https://go.dev/dl/) and rerun 'pnpm --filter @erpcert/load-k6 build'," >&2
  echo "    or run load tests with --engine autocannon, which needs only Node." >&2
  exit 1
fi

mkdir -p "$tools/bin" "$tools/cache"
xk6="$tools/cache/xk6-$XK6_VERSION"
if [ ! -x "$xk6" ]; then
  echo "k6: installing xk6 $XK6_VERSION from the Go module proxy"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  # A throwaway module: `go get` at a fixed version needs no version list (unlike `go install ...@latest`).
  (cd "$work" && go mod init erpcert-xk6 >/dev/null 2>&1 \
    && go get "go.k6.io/xk6@$XK6_VERSION" >/dev/null 2>&1 \
    && GOBIN="$work/bin" go install go.k6.io/xk6)
  mv "$work/bin/xk6" "$xk6"
fi

echo "k6: building k6 $K6_VERSION with xk6 $XK6_VERSION (takes a few minutes the first time)"
"$xk6" build "$K6_VERSION" --output "$bin.tmp" --quiet
mv "$bin.tmp" "$bin"
echo "$want" > "$stamp"
echo "k6: built $("$bin" version | head -n1) at tools/bin/k6"
