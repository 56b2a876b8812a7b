#!/usr/bin/env bash
# Regenerates the goldens of rttree_reduce with RADIANCE 6.0a (scripts/setup-reference.sh
# installs it into .venv-ref). The grids are made by RADIANCE's cnt and rcalc:
#
# grid4.txt.gz  a 4-D grid, 8 cells a side: a lobe along the diagonal, noise from rand(),
#               and some negative values (taken as 0)
# grid3.txt.gz  the lower half of a 3-D grid, 16 cells a side: a lobe
# The float and double inputs are grid4.txt converted by rcalc -of / -od (the test
# converts it the same way: each number read as a double, then cast). The trees, as
# NAME.txt.gz:
# t4_90         -h -r 4 -g 3 -t 90 grid4.txt
# t4_50f        -r 4 -g 3 -t 50 -ff grid4.f (with the header; its date lines vary)
# t4_0ad        -h -a -r 4 -g 3 -t 0 -fd grid4.d (reciprocity averaging, nothing culled)
# t3_70a        -h -a -r 3 -g 4 -t 70 grid3.txt
# t3_def        -h -r 3 -g 4 < grid3.txt (the default 95 % culled, standard input)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
[ -n "${RADIANCE_BIN:-}" ] || eval "$("$root/scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cnt 8 8 8 8 | rcalc -e '$1 = 0.05 + 3*exp(-(($1-$3)^2+($2-$4)^2)/2) + 0.01*rand(recno) - if(rand(recno+.5)-.99, .2, 0)' > grid4.txt
cnt 8 16 16 | rcalc -e '$1 = 0.1 + 5*exp(-(($1*2+.5-16)^2 + ($2-8)^2 + ($3-8)^2)/6) + 0.02*rand(recno)' > grid3.txt
rcalc -e '$1=$1' -of < grid4.txt > grid4.f
rcalc -e '$1=$1' -od < grid4.txt > grid4.d
gzip -9nc grid4.txt > "$here/grid4.txt.gz"
gzip -9nc grid3.txt > "$here/grid3.txt.gz"
z() { local out=$1; shift; rttree_reduce "$@" | gzip -9n > "$here/$out.txt.gz"; }
z t4_90 -h -r 4 -g 3 -t 90 grid4.txt
z t4_50f -r 4 -g 3 -t 50 -ff grid4.f
z t4_0ad -h -a -r 4 -g 3 -t 0 -fd grid4.d
z t3_70a -h -a -r 3 -g 4 -t 70 grid3.txt
rttree_reduce -h -r 3 -g 4 < grid3.txt | gzip -9n > "$here/t3_def.txt.gz"
