#!/usr/bin/env bash
# Mean wait (hours) and mean bounded slowdown of KTH-SP2 under every
# registered scheduler, rigid replay, as CSV on standard output.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(mktemp -d)/hpcwl"
go build -o "$bin" ./cmd/hpcwl
echo "scheduler,mean_wait_h,mean_bounded_slowdown"
for s in $("$bin" simulate --help | sed -n 's/^ *--scheduler string *scheduler: \(.*\) (default.*/\1/p' | tr -d ' ' | tr ',' ' '); do
  "$bin" simulate builtin:KTH-SP2 --scheduler "$s" --json |
    python3 -c 'import json,sys; d=json.load(sys.stdin); m=d["metrics"]; print("%s,%.2f,%.2f" % (sys.argv[1], m["wait"]["mean"]/3600, m["bounded_slowdown"]["mean"]))' "$s"
done
