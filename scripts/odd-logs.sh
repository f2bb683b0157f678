#!/usr/bin/env bash
# Runs every hpcwl command on every shared log and on the hand-made odd logs
# of internal/testdata/odd, and checks that each run ends with exit status 0
# or a clear error (exit 1 or 2 with an "hpcwl: ..." message, no panic or
# stack trace), and that no JSON output holds Inf or NaN (and none fails to
# encode: "json: unsupported value").
#
# Usage: scripts/odd-logs.sh [LOG...]
#   LOG  logs to run on (default: every *.swf.gz of the data directory and
#        every internal/testdata/odd/*.swf)
# Environment:
#   HPCWL_DATA         directory of the shared logs (default ../shared/data/swf)
#   ODD_LOGS_OUT       directory for outputs and the report (default: a temporary one)
#   CONS_TIMEOUT       seconds allowed to conservative backfilling per log (default 60);
#                      a run cut by it is reported as "slow", not as a failure: conservative
#                      backfilling on long queues is a known limit (docs/performance.md)
#   BIG_JOBS           logs with more jobs than this fit fewer families (default 100000)
#
# Short options keep the run to a few minutes on two cores: replicate
# --variants 2, generate lublin --jobs 2000, and on logs of more than
# BIG_JOBS jobs `fit` leaves out the two slowest families (loglogistic and
# hyperexponential: 23 s and 5 s of the 72 s on SDSC-BLUE); the generalized
# Pareto, whose degenerate fits once broke --json, is always fitted.
set -uo pipefail
cd "$(dirname "$0")/.."
data="${HPCWL_DATA:-$(cd .. && pwd)/shared/data/swf}"
out="${ODD_LOGS_OUT:-$(mktemp -d)}"
cons_timeout="${CONS_TIMEOUT:-60}"
big_jobs="${BIG_JOBS:-100000}"
mkdir -p "$out"
bin="$out/hpcwl"
go build -o "$bin" ./cmd/hpcwl || exit 1

if [ $# -gt 0 ]; then
  logs=("$@")
else
  logs=()
  for f in "$data"/*.swf.gz internal/testdata/odd/*.swf; do
    [ -f "$f" ] && logs+=("$f")
  done
fi

report="$out/report.txt"
: >"$report"
fails=0 runs=0 errors=0 slow=0

# jsoncheck FILE: the file is JSON without NaN or Infinity.
jsoncheck() {
  python3 - "$1" <<'EOF'
import json, sys
def bad(c):
    raise ValueError("non-finite number " + c)
with open(sys.argv[1]) as f:
    text = f.read()
# Several JSON documents may follow each other (none for an empty file).
dec, i = json.JSONDecoder(parse_constant=bad), 0
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    _, i = dec.raw_decode(text, i)
EOF
}

# check NAME JSON CMD...: runs the command and judges its outcome. JSON is
# "json" when stdout must be checked as JSON.
check() {
  local name="$1" json="$2" log="$3"
  shift 3
  local so="$out/stdout" se="$out/stderr" code start secs verdict
  start=$(date +%s.%N)
  "$@" >"$so" 2>"$se"
  code=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  runs=$((runs + 1))
  verdict="ok"
  if grep -qE '^panic:|^goroutine [0-9]+ \[|runtime error:' "$se" "$so"; then
    verdict="FAIL (panic)"
  elif grep -q 'json: unsupported value' "$se" "$so"; then
    verdict="FAIL (JSON cannot encode a value)"
  elif [ "$code" -eq 124 ] && [ "$name" = "simulate conservative" ]; then
    verdict="slow (cut at ${cons_timeout} s)"
    slow=$((slow + 1))
  elif [ "$code" -ne 0 ]; then
    if { [ "$code" -eq 1 ] || [ "$code" -eq 2 ]; } && grep -q '^hpcwl: ' "$se"; then
      verdict="error $code: $(grep -m1 '^hpcwl: ' "$se" | cut -c8- | cut -c1-150)"
      errors=$((errors + 1))
    else
      verdict="FAIL (exit $code without a clear message)"
    fi
  elif [ "$json" = json ] && ! jsoncheck "$so" 2>"$out/jsonerr"; then
    verdict="FAIL (JSON: $(tail -1 "$out/jsonerr"))"
  fi
  case "$verdict" in FAIL*) fails=$((fails + 1)) ;; esac
  printf '%-34s %-36s %6.1fs  %s\n' "$(basename "$log")" "$name" "$secs" "$verdict" | tee -a "$report"
  if grep -q '^warning: ' "$se"; then
    grep '^warning: ' "$se" | sort -u | sed 's/^/      /' | cut -c1-220 >>"$report"
  fi
}

check "version" plain "-" "$bin" version
check "man" plain "-" "$bin" man "$out/man"
check "completion" plain "-" "$bin" completion bash
for log in "${logs[@]}"; do
  lenient=()
  case "$log" in */status.swf) lenient=(--lenient) ;; esac
  w="$out/$(basename "$log" .gz)"
  w="${w%.swf}"
  mkdir -p "$w"
  jobs=$(zcat -f "$log" | grep -vc '^;' || true)
  if [ ${#lenient[@]} -gt 0 ]; then
    check "info (strict)" json "$log" "$bin" info --json "$log"
  fi
  check "info" json "$log" "$bin" info --json "${lenient[@]}" "$log"
  check "info table" plain "$log" "$bin" info "${lenient[@]}" "$log"
  check "clean" plain "$log" "$bin" clean "${lenient[@]}" "$log" -o "$w/clean.swf"
  check "convert batsim" plain "$log" "$bin" convert "${lenient[@]}" "$log" -o "$w/batsim.json"
  check "convert csv" plain "$log" "$bin" convert "${lenient[@]}" "$log" -o "$w/log.csv"
  for s in fcfs easy easy-x2 sjf sjbf ups ups-recency; do
    check "simulate $s" json "$log" "$bin" simulate --json --scheduler "$s" "${lenient[@]}" "$log"
  done
  for p in constant easy++ perfect ruh sbh sbh-noest sbh-noest-balanced; do
    check "simulate easy --predictor $p" json "$log" "$bin" simulate --json --predictor "$p" "${lenient[@]}" "$log"
  done
  check "simulate conservative" json "$log" timeout "$cons_timeout" "$bin" simulate --json --scheduler conservative "${lenient[@]}" "$log"
  check "evaluate" json "$log" "$bin" evaluate --json "${lenient[@]}" "$log"
  check "sessions" json "$log" "$bin" sessions --json "${lenient[@]}" "$log"
  check "resample" json "$log" "$bin" resample --json "${lenient[@]}" "$log" -o "$w/resampled.swf"
  if [ -f "$w/resampled.swf" ]; then
    check "compare" json "$log" "$bin" compare --json "${lenient[@]}" "$log" "$w/resampled.swf"
  else
    check "compare (log with itself)" json "$log" "$bin" compare --json "${lenient[@]}" "$log" "$log"
  fi
  check "replicate" json "$log" "$bin" replicate --json --variants 2 "${lenient[@]}" "$log"
  families=()
  if [ "$jobs" -gt "$big_jobs" ]; then
    families=(--families exponential,gamma,lognormal,weibull,gpd,hypergamma)
  fi
  check "fit" json "$log" "$bin" fit --json "${families[@]}" "${lenient[@]}" "$log"
  rm -f "$w/params.json"
  check "fit lublin" json "$log" "$bin" fit lublin --json "${lenient[@]}" "$log" -o "$w/params.json"
  if [ -f "$w/params.json" ]; then
    check "generate lublin" plain "$log" "$bin" generate lublin --params "$w/params.json" --jobs 2000 -o "$w/lublin.swf"
  fi
done

{
  echo
  echo "$runs runs: $((runs - fails - errors - slow)) ok, $errors clear errors, $slow slow (conservative cut), $fails failures"
} | tee -a "$report"
echo "report: $report"
[ "$fails" -eq 0 ]
