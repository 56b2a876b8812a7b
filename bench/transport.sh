#!/usr/bin/env bash
# Light-transport benchmark (issue 3): daylit against RADIANCE 6.0a on the side-lit office under
# the CIE overcast sky (validation/scenes/06_office_overcast), in one run, both on 2 threads.
#   sensors: `rtrace -n 2 -I+` at four -ad settings; error = illuminance MARD against the golden
#            (RADIANCE -ad 16384, converged to about 0.3 %)
#   picture: `rpict` (RADIANCE has no threads; daylit uses 2) 128x128 fisheye at three -ad
#            settings; error = Tregenza-patch RMSE_rel against the golden view.hdr
# Prints time, error and the time ratio per setting.   Usage: bench/transport.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$here/scripts/setup-reference.sh" | grep '^export')"
cargo build --release -q -p daylit --manifest-path "$here/Cargo.toml"
daylit="$here/target/release/daylit"
case_dir="$here/validation/scenes/06_office_overcast"
gold="$here/validation/goldens/06_office_overcast"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$case_dir"
# RADIANCE's own genbox and xform run the scene's inline commands.
PATH="$RADIANCE_BIN:$PATH" "$RADIANCE_BIN/oconv" sky.rad scene.rad > "$tmp/scene.oct"
direct="-dj 0 -ds 0.2 -dt 0 -dc 1 -dr 3 -dp 512 -ss 1 -st 0"

mard() { # file -> illuminance MARD (%) against the golden
  python3 - "$1" "$gold/illuminance.txt" <<'PY'
import sys
d=[l.split() for l in open(sys.argv[1]) if l.strip()]
g=[float(l.split()[0]) for l in open(sys.argv[2]) if l.strip()]
lux=[179*(0.265*float(a)+0.670*float(b)+0.065*float(c)) for a,b,c in d]
print("%.2f" % (100*sum(abs(x-y)/y for x,y in zip(lux,g))/len(g)))
PY
}
secs() { local t0 t1; t0=$(date +%s.%N); "$@"; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }

echo "== sensors: 32 points, -ab 8 -as 0 -aa 0 -lr -10 -lw 1e-6 (RADIANCE rtrace -n 2 vs daylit rtrace -n 2)"
printf "%-8s %10s %9s %10s %9s %7s\n" "-ad" "radiance_s" "mard_%" "daylit_s" "mard_%" "ratio"
for ad in 1024 2048 4096 16384; do
  opts="-h -I+ -ov -ab 8 -ad $ad -as 0 -aa 0 -lr -10 -lw 1e-6 $direct"
  tr=$(secs sh -c "PATH=$RADIANCE_BIN:\$PATH rtrace -n 2 $opts $tmp/scene.oct < sensors.pts > $tmp/r.txt")
  td=$(secs sh -c "$daylit rtrace -n 2 $opts sky.rad scene.rad < sensors.pts > $tmp/d.txt")
  printf "%-8s %10.2f %9s %10.2f %9s %7.1f\n" "$ad" "$tr" "$(mard $tmp/r.txt)" "$td" "$(mard $tmp/d.txt)" "$(echo "$tr / $td" | bc -l)"
done

echo "== picture: 128x128 -vta fisheye, -ab 4 -as 0 -aa 0 -lr -10 -lw 1e-5, -ps 1 -pj 0 (RADIANCE rpict vs daylit rpict, 2 threads)"
printf "%-8s %10s %9s %10s %9s %7s\n" "-ad" "radiance_s" "rmse_%" "daylit_s" "rmse_%" "ratio"
for ad in 128 256 512; do
  opts="-vf view.vf -x 128 -y 128 -pa 1 -ps 1 -pj 0 -pt 0 -ab 4 -ad $ad -as 0 -aa 0 -lr -10 -lw 1e-5 -u+ $direct"
  tr=$(secs sh -c "PATH=$RADIANCE_BIN:\$PATH rpict $opts $tmp/scene.oct > $tmp/r.hdr")
  td=$(secs sh -c "$daylit rpict $opts sky.rad scene.rad > $tmp/d.hdr")
  er=$("$daylit" compare --json "$tmp/r.hdr" "$gold/view.hdr" 2>/dev/null | python3 -c 'import json,sys; print("%.2f" % (100*json.load(sys.stdin)["rmse_rel"]))')
  ed=$("$daylit" compare --json "$tmp/d.hdr" "$gold/view.hdr" 2>/dev/null | python3 -c 'import json,sys; print("%.2f" % (100*json.load(sys.stdin)["rmse_rel"]))')
  printf "%-8s %10.2f %9s %10.2f %9s %7.1f\n" "$ad" "$tr" "$er" "$td" "$ed" "$(echo "$tr / $td" | bc -l)"
done
