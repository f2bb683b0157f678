#!/usr/bin/env bash
# The characterization of the built-in KTH-SP2 log shown in the README.
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./cmd/hpcwl info builtin:KTH-SP2
