#!/usr/bin/env bash
# All tests: the Rust workspace, the browser end-to-end tests of `daylit live` and of
# `daylit annual`'s report.html, then daylit as the only RADIANCE inside honeybee-radiance's
# recipes and under pyradiance's functions, then the Python package (its wheel built and
# installed into .venv-py) against the CLI.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
bash scripts/e2e-live.sh
bash scripts/e2e-report.sh
bash scripts/e2e-honeybee.sh
bash scripts/e2e-pyradiance.sh
bash scripts/e2e-python.sh
