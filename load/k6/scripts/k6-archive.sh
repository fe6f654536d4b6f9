#!/usr/bin/env bash
# Makes the `k6 archive` of one scenario for a distributed run (k6-operator TestRun, see deploy/testrun.yaml):
# one tar holding the script, its modules and the vendor bundles (dist/vendor), with k6's options frozen in it.
#
# Usage (from the repository root or load/k6):
#   load/k6/scripts/k6-archive.sh <scenario> <out.tar> [-e ERPCERT_NAME=value ...]
#
# Everything that shapes the run (ERPCERT_RATE, ERPCERT_DURATION, ERPCERT_SATURATION and ERPCERT_SAT_*,
# ERPCERT_BATCH, ERPCERT_PAUSE_MS, ERPCERT_RECORDS, ERPCERT_TIMEOUT_MS, ERPCERT_MAX_VUS, ERPCERT_PARALLELISM) must be
# given HERE: the archive freezes k6's options, and a run whose settings differ fails with a reason saying so.
# Every -e value is stored in the archive, so the password is refused here: give it to the runners (Secret).
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
scenario="$1"
out="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
shift 2

here="$(cd "$(dirname "$0")/.." && pwd)"
script="$here/scenarios/$scenario.ts"
if [ ! -f "$script" ] || [ "$scenario" = catalogue ]; then
  echo "k6-archive: unknown scenario '$scenario' (one of: invoices transactions read-raw read-fields sync portal-mix)" >&2
  exit 2
fi
for arg in "$@"; do
  case "$arg" in
    ERPCERT_PASSWORD=*|*=*ERPCERT_PASSWORD*)
      echo "k6-archive: refusing ERPCERT_PASSWORD: -e values are stored in the archive; set it on the runners" >&2
      exit 2 ;;
  esac
done

k6="${ERPCERT_K6:-}"
if [ -z "$k6" ]; then
  if [ -x "$here/../../tools/bin/k6" ]; then k6="$here/../../tools/bin/k6"; else k6="$(command -v k6 || true)"; fi
fi
if [ -z "$k6" ]; then
  echo "k6-archive: no k6; run 'pnpm --filter @erpcert/load-k6 build' first" >&2
  exit 2
fi

node "$here/scripts/build-vendor.mjs" >/dev/null
export K6_AUTO_EXTENSION_RESOLUTION=false
# without --include-system-env-vars, nothing from this shell's environment goes into the archive
(cd "$here" && "$k6" archive --quiet "$@" -O "$out" "scenarios/$scenario.ts")
echo "k6-archive: $out ($(wc -c < "$out") bytes)"
echo "next: kubectl create configmap erpcert-$scenario --from-file=archive.tar=$out"
