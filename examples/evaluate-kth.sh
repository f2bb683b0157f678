#!/usr/bin/env bash
# Rigid vs feedback replay of the built-in KTH-SP2 log on nodes half as fast
# (the README's first command).
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./cmd/hpcwl evaluate builtin:KTH-SP2 --speed 0.5
