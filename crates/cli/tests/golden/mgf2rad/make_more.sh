#!/usr/bin/env bash
# Run by ../make_cases.sh mgf2rad after the cases, with RADIANCE on the PATH: RADIANCE's
# oconv and rtrace on RADIANCE's translation of blinds20c.mgf, rays.txt traced for the first
# hit's distance and surface normal (-oLn), to out/trace.txt.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mgf2rad inputs/blinds20c.mgf > "$work/blinds.rad"
oconv "$work/blinds.rad" > "$work/blinds.oct"
rtrace -h -oLn "$work/blinds.oct" < rays.txt > out/trace.txt
