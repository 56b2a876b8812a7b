#!/usr/bin/env bash
# All tests: the Rust workspace, then the browser end-to-end test of `daylit live`.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
bash scripts/e2e-live.sh
