#!/usr/bin/env bash
# Reads hpcwl's Parquet outputs with pyarrow, pandas and DuckDB and checks
# that they hold the rows and values of the CSV outputs (scripts/pyreaders.py):
# the built-in KTH-SP2 log converted, the per-job results of simulate, the
# per-run metrics of replicate, the per-job results and curves of evaluate.
#
# The readers come from the Python package registry (pip) into a virtual
# environment kept in $HPCWL_PYENV (default ~/.cache/hpcwl/pyreaders), so
# that later runs start at once. When pip cannot reach its registry, the
# Python readers are skipped with a message and the same checks run with
# DuckDB and hyparquet from the npm registry (scripts/jsreaders.mjs); when
# those cannot be installed either, the check is skipped (exit 0). Any other
# failure is an error.
#
# Usage: scripts/pyreaders.sh [DIR]   (DIR keeps the files; default a temporary one)
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/hpcwl"
venv="${HPCWL_PYENV:-$cache/pyreaders}"
packages=(pyarrow pandas duckdb)
# The npm readers, pinned.
npm_packages=(@duckdb/node-api@1.5.6-r.1 hyparquet@1.31.5 hyparquet-compressors@1.1.2)

dir="${1:-}"
if [ -z "$dir" ]; then
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"

echo "pyreaders: writing the files in $dir"
go build -o "$dir/hpcwl" ./cmd/hpcwl
h="$dir/hpcwl"
for ext in csv parquet; do
  "$h" convert builtin:KTH-SP2 -o "$dir/kth.$ext" 2>/dev/null
  "$h" simulate builtin:KTH-SP2 --scheduler easy --jobs "$dir/jobs.$ext" >/dev/null
  "$h" replicate builtin:KTH-SP2 --variants 3 --duration 10w --workers 1 --runs "$dir/runs.$ext" >/dev/null 2>&1
  "$h" evaluate builtin:KTH-SP2 --jobs "$dir/evaluate_jobs.$ext" --curve "$dir/evaluate_curve.$ext" >/dev/null
done

# npm_readers REASON runs the same checks with DuckDB and hyparquet from the
# npm registry, for machines where the Python readers cannot be installed.
npm_readers() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "pyreaders: SKIPPED: $1, and node/npm are not installed for the npm readers"
    exit 0
  fi
  local js="$cache/jsreaders"
  mkdir -p "$js"
  cp scripts/jsreaders.mjs "$js/"
  if ! (cd "$js" && node -e 'import("@duckdb/node-api").then(() => import("hyparquet")).then(() => import("hyparquet-compressors"))') >/dev/null 2>&1; then
    echo "pyreaders: installing ${npm_packages[*]} into $js"
    if ! npm install --silent --no-audit --no-fund --prefix "$js" "${npm_packages[@]}" >/dev/null 2>&1; then
      echo "pyreaders: SKIPPED: $1, and npm could not install the npm readers either"
      exit 0
    fi
  fi
  echo "pyreaders: $1: reading with DuckDB and hyparquet from npm instead of pyarrow, pandas and DuckDB from pip"
  node "$js/jsreaders.mjs" "$dir"
}

python="$(command -v python3 || true)"
if [ -z "$python" ]; then
  npm_readers "no python3 on this machine"
  exit
fi

registry_answers() {
  "$python" -c 'import urllib.request; urllib.request.urlopen("https://pypi.org/simple/pip/", timeout=10)' 2>/dev/null
}

if ! { [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import pyarrow, pandas, duckdb' 2>/dev/null; }; then
  if ! registry_answers; then
    npm_readers "pip cannot reach the package registry (https://pypi.org)"
    exit
  fi
  # A virtual environment needs the venv module (and ensurepip, for pip),
  # which Debian and Ubuntu ship apart as python3-venv.
  if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
      echo "pyreaders: installing python3-venv"
      apt-get install -y -q python3-venv >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q python3-venv >/dev/null; }
    else
      echo "pyreaders: python3 lacks the venv module; install python3-venv" >&2
      exit 1
    fi
  fi
  mkdir -p "$(dirname "$venv")"
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  echo "pyreaders: installing ${packages[*]} into $venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --retries 2 --timeout 60 "${packages[@]}"
fi

"$venv/bin/python" scripts/pyreaders.py "$dir"
