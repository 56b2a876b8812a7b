#!/usr/bin/env bash
# Foundation benchmark: daylit against RADIANCE 6.0a on the same rays, in one run.
#
#   bash bench/foundation.sh
#
# Scenes: a ~10^6-triangle OBJ mesh (bench/make_obj.py) and the bundled office
# (examples/office), 10^6 random rays each (origins in the mesh's bounds / inside the room,
# directions uniform on the sphere). daylit casts them with `daylit bench-rays`, which also
# writes them as RADIANCE binary float input; RADIANCE casts the same rays with
# `rtrace -h -ff -oL` (first-hit distance only: rtrace just casts rays, no shading).
# RADIANCE's load time (rtrace on a one-ray file) is measured separately and subtracted to
# get its ray rate. Every timing is the best of $REPS rounds (default 3; the office, whose
# rounds take seconds, $OFFICE_REPS, default 9; the machine is shared), with daylit's and
# RADIANCE's runs interleaved so that both see the same load. Each round's one- and two-thread
# ratios (daylit's rate over RADIANCE's rate in the same round) are kept too, and their medians
# are reported: on a shared machine a median moves less than a ratio of two bests, which can
# come from different rounds. Work files go in bench-out/foundation/. Environment: REPS,
# OFFICE_REPS, RAYS, TRIS.
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
REPS=${REPS:-3}
OFFICE_REPS=${OFFICE_REPS:-9}
RAYS=${RAYS:-1000000}
TRIS=${TRIS:-1000000}
out="$root/bench-out/foundation"
mkdir -p "$out"

log() { printf '%s\n' "$*" >&2; }

# --- daylit ------------------------------------------------------------------------------
log "== building daylit (release)"
cargo build --release -p daylit >&2
daylit="${CARGO_TARGET_DIR:-$root/target}/release/daylit"

# --- RADIANCE ----------------------------------------------------------------------------
log "== locating RADIANCE"
eval "$(scripts/setup-reference.sh)"
export PATH="$RADIANCE_BIN:$PATH" RAYPATH
rtrace -version >&2 || true

# --- helpers -----------------------------------------------------------------------------
# timed N CMD: runs the shell command line CMD N times, prints the fastest wall time (s).
timed() {
  local b="" s e t i
  for ((i = 0; i < $1; i++)); do
    s=$EPOCHREALTIME
    eval "$2"
    e=$EPOCHREALTIME
    t=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f", e - s }')
    b=$(minv "$t" "$b")
  done
  printf '%s' "$b"
}
calc() { awk "BEGIN { printf \"%.${2:-2}f\", $1 }"; }
minv() { awk -v a="$1" -v b="${2:-1e99}" 'BEGIN { print (a + 0 < b + 0 ? a : b) }'; }
maxv() { awk -v a="$1" -v b="${2:-0}" 'BEGIN { print (a + 0 > b + 0 ? a : b) }'; }

# daylit_once TAG ARGS...: one run of daylit bench-rays (the first also writes the rays to
# $out/TAG.f32); folds its numbers into the bests D_lb (min), D_c1 D_cn D_a1 D_an (max).
daylit_once() {
  local tag=$1 f
  shift
  local extra=()
  [ -f "$out/$tag.f32" ] || extra=(--write-rays "$out/$tag.f32")
  "$daylit" bench-rays --rays "$RAYS" "${extra[@]}" "$@" > "$out/$tag.daylit.txt"
  cat "$out/$tag.daylit.txt" >&2
  local shapes lb hits threads c1 cn a1 an fp
  # shellcheck disable=SC2046
  read -r shapes lb hits threads c1 cn a1 an fp <<< $(awk '
    /^shapes/      { for (i = 1; i <= NF; i++) { if ($i == "shapes") s = $(i+1); if ($i == "load+build") lb = $(i+1) } }
    /^rays/        { for (i = 1; i <= NF; i++) { if ($i == "hits") h = $(i+1); if ($i == "threads") t = $(i+1); if ($i == "fingerprint") f = $(i+1) } }
    /^closest-hit/ { k = 0; for (i = 2; i <= NF; i++) if ($i == "Mrays/s") c[++k] = $(i-1); c1 = c[1]; cn = c[2] }
    /^any-hit/     { k = 0; for (i = 2; i <= NF; i++) if ($i == "Mrays/s") c[++k] = $(i-1); a1 = c[1]; an = c[2] }
    END { print s, lb, h, t, c1, cn, a1, an, f }' "$out/$tag.daylit.txt")
  if [ -n "$D_hits" ] && { [ "$hits" != "$D_hits" ] || [ "$fp" != "$D_fp" ]; }; then
    log "daylit results changed between runs: hits $D_hits vs $hits, fingerprint $D_fp vs $fp"
    exit 1
  fi
  D_shapes=$shapes D_hits=$hits D_threads=$threads D_fp=$fp D_round=$c1 D_round2=$cn
  D_lb=$(minv "$lb" "$D_lb")
  for f in c1 cn a1 an; do
    local cur="D_$f"
    printf -v "$cur" '%s' "$(maxv "${!f}" "${!cur}")"
  done
}

# radiance_once TAG OCTREE: one timing each, on a one-ray file (start-up) and on $out/TAG.f32,
# of rtrace -n 1, rtrace -n 2, and two rtrace -n 1 processes side by side on the two halves of
# the rays; folds them into the bests R_load1 R_tot1 R_load2 R_tot2 R_loadp R_totp (min).
# (rtrace with only -oL is "cast only" and then ignores -n: rtmain.c sets nproc = 1. The split
# run is RADIANCE on both cores.)
radiance_once() {
  local tag=$1 oct=$2 half=$((RAYS / 2 * 24))
  head -c 24 "$out/$tag.f32" > "$out/$tag.one.f32"
  head -c "$half" "$out/$tag.f32" > "$out/$tag.a.f32"
  tail -c +$((half + 1)) "$out/$tag.f32" > "$out/$tag.b.f32"
  local rt="rtrace -h -ff -oL -n 1 '$oct'"
  R_loadp=$(minv "$(timed 1 "$rt < '$out/$tag.one.f32' > /dev/null & $rt < '$out/$tag.one.f32' > /dev/null & wait")" "$R_loadp")
  local tp
  tp=$(timed 1 "$rt < '$out/$tag.a.f32' > '$out/$tag.radA.f32' & $rt < '$out/$tag.b.f32' > '$out/$tag.radB.f32' & wait")
  R_totp=$(minv "$tp" "$R_totp")
  PAIRS2+=("$(calc "$D_round2 * ($tp - $R_loadp) / ($RAYS / 1e6)" 3)")
  R_load1=$(minv "$(timed 1 "rtrace -h -ff -oL -n 1 '$oct' < '$out/$tag.one.f32' > /dev/null")" "$R_load1")
  local t1
  t1=$(timed 1 "rtrace -h -ff -oL -n 1 '$oct' < '$out/$tag.f32' > '$out/$tag.rad1.f32'")
  R_tot1=$(minv "$t1" "$R_tot1")
  # This round's one-thread ratio (start-up: the best one-ray run so far).
  PAIRS+=("$(calc "$D_round * ($t1 - $R_load1) / ($RAYS / 1e6)" 3)")
  R_load2=$(minv "$(timed 1 "rtrace -h -ff -oL -n 2 '$oct' < '$out/$tag.one.f32' > /dev/null")" "$R_load2")
  R_tot2=$(minv "$(timed 1 "rtrace -h -ff -oL -n 2 '$oct' < '$out/$tag.f32' > '$out/$tag.rad2.f32'")" "$R_tot2")
  log "best so far: rtrace -n 1: start-up $R_load1 s, total $R_tot1 s;  -n 2: $R_load2 s, $R_tot2 s;  2 processes: $R_loadp s, $R_totp s"
}

# radiance_hits TAG: counts RADIANCE's hits in its -n 1, -n 2 and two-process outputs; sets
# R_hits R_hits2 R_hitsp R_zero. A miss in rtrace -oL is a distance of 1e10 (FHUGE) or more, or 0.
radiance_hits() {
  local tag=$1 n
  read -r R_hits R_zero n R_hits2 R_hitsp <<< "$(python3 -c '
import array, sys
def load(*ps):
    a = array.array("f")
    for p in ps:
        a.frombytes(open(p, "rb").read())
    return a
hits = lambda a: sum(1 for d in a if 0 < d < 1e10)
a, b, c = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3], sys.argv[4])
print(hits(a), sum(1 for d in a if d == 0), len(a), hits(b), hits(c))' \
    "$out/$tag.rad1.f32" "$out/$tag.rad2.f32" "$out/$tag.radA.f32" "$out/$tag.radB.f32")"
  if [ "$n" -ne "$RAYS" ]; then
    log "rtrace returned $n results for $RAYS rays"
    exit 1
  fi
}

# measure TAG OCTREE ROUNDS DAYLIT_ARGS...: ROUNDS rounds of daylit then RADIANCE, interleaved
# so that both see the same machine load; every figure is the best over the rounds, and PAIRS
# and PAIRS2 hold each round's one- and two-thread ratios.
measure() {
  local tag=$1 oct=$2 rounds=$3 i
  shift 3
  PAIRS=() PAIRS2=()
  D_lb="" D_c1="" D_cn="" D_a1="" D_an="" D_hits="" D_shapes="" D_threads="" D_fp=""
  R_load1="" R_tot1="" R_load2="" R_tot2="" R_loadp="" R_totp=""
  rm -f "$out/$tag.f32"
  for ((i = 0; i < rounds; i++)); do
    log "-- $tag round $((i + 1))/$rounds"
    daylit_once "$tag" "$@"
    radiance_once "$tag" "$oct"
  done
  radiance_hits "$tag"
}

declare -A ROW ANY AGREE LOADS PAIRED
# paired TAG THREADS RATIO...: one report line with the median and range of the rounds' ratios.
paired() {
  local tag=$1 threads=$2
  shift 2
  printf '%s\n' "$@" | sort -g | awk -v tag="$tag" -v threads="$threads" '
    { v[NR] = $1 }
    END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf "%-7s %s, ratio within each round: median %.1fx, range %.1f-%.1fx over %d rounds", tag, threads, m, v[1], v[NR], NR }'
}
# record TAG: stores the report lines for a scene from the D_ and R_ variables.
record() {
  local tag=$1 n rr1 rr2 rl1 rl2 rrn diff
  n=$(calc "$RAYS / 1e6" 6)
  rr1=$(calc "$n / ($R_tot1 - $R_load1)" 3)
  rr2=$(calc "$n / ($R_totp - $R_loadp)" 3)
  rl1=$(calc "$n / $R_tot1" 3)
  rl2=$(calc "$n / $R_totp" 3)
  rrn=$(calc "$n / ($R_tot2 - $R_load2)" 3)
  ROW[$tag]=$(
    printf '%-7s %7s %7s %6s %9s %6s %6sx %9s %6sx\n' "$tag" 1 "$D_c1" "$D_c1" \
      "$rr1" "$rr1" "$(calc "$D_c1 / $rr1" 1)" "$rl1" "$(calc "$D_c1 / $rl1" 1)"
    printf '%-7s %7s %7s %6s %9s %6s %6sx %9s %6sx' "$tag" 2 "$D_cn" "$(calc "$D_cn / 2")" \
      "$rr2" "$(calc "$rr2 / 2" 3)" "$(calc "$D_cn / $rr2" 1)" "$rl2" "$(calc "$D_cn / $rl2" 1)"
  )
  PAIRED[$tag]="$(paired "$tag" "1 thread" "${PAIRS[@]}")
$(paired "$tag" "2 threads" "${PAIRS2[@]}")"
  ANY[$tag]=$(printf '%-7s daylit any-hit: 1 thread %s, %s threads %s Mrays/s;  RADIANCE rtrace -n 2: %s Mrays/s (%s with start-up)' \
    "$tag" "$D_a1" "$D_threads" "$D_an" "$rrn" "$(calc "$n / $R_tot2" 3)")
  diff=$((D_hits > R_hits ? D_hits - R_hits : R_hits - D_hits))
  AGREE[$tag]=$(printf '%-7s hits: daylit %s, RADIANCE %s (-n 2: %s, 2 processes: %s); misses: daylit %s, RADIANCE %s (of which distance 0: %s); |difference| %s = %s of the rays; daylit result fingerprint %s' \
    "$tag" "$D_hits" "$R_hits" "$R_hits2" "$R_hitsp" "$((RAYS - D_hits))" "$((RAYS - R_hits))" "$R_zero" \
    "$diff" "$(calc "$diff / $RAYS" 6)" "$D_fp")
  LOADS[$tag]=$(printf 'RADIANCE rtrace start-up (octree load, one ray): %s s (-n 1), %s s (-n 2), %s s (2 processes)' \
    "$R_load1" "$R_load2" "$R_loadp")
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# --- 10^6-triangle mesh ------------------------------------------------------------------
log "== mesh: generating ~$TRIS triangles"
python3 bench/make_obj.py "$out/mesh.obj" "$TRIS" >&2
printf 'void plastic terrain 0 0 5 .3 .3 .3 0 0\nvoid plastic box 0 0 5 .5 .5 .5 0 0\n' > "$out/mats.rad"
printf 'void mesh m 1 %s 0 0\n' "$out/mesh.rtm" > "$out/inst.rad"

log "== mesh: RADIANCE obj2mesh + oconv"
t_obj2mesh=$(timed "$REPS" "obj2mesh -a '$out/mats.rad' '$out/mesh.obj' '$out/mesh.rtm'")
t_oconv=$(timed "$REPS" "oconv '$out/mats.rad' '$out/inst.rad' > '$out/mesh.oct'")
log "== mesh: daylit bench-rays and RADIANCE rtrace"
measure mesh "$out/mesh.oct" "$REPS" "$out/mats.rad" "$out/mesh.obj"
mesh_lb=$D_lb mesh_shapes=$D_shapes
record mesh

# --- office --------------------------------------------------------------------------------
office=(examples/office/sky.rad examples/office/office.rad)
log "== office: RADIANCE oconv (genbox | xform through the shell)"
t_oconv_office=$(timed "$REPS" "oconv ${office[*]} > '$out/office.oct'")
log "== office: daylit bench-rays and RADIANCE rtrace"
measure office "$out/office.oct" "$OFFICE_REPS" --allow-commands --origins 0 0 0 3.6 8.2 2.85 "${office[@]}"
office_lb=$D_lb office_shapes=$D_shapes
record office

# --- report ----------------------------------------------------------------------------------
cat <<EOF

Foundation benchmark: daylit vs RADIANCE $(rtrace -version 2>/dev/null | head -1 | awk '{print $2}')
machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); $(date -u '+%Y-%m-%d %H:%M UTC')
load average (1, 5, 15 min): at start $load_start, at end $(cut -d' ' -f1-3 /proc/loadavg)
$RAYS random rays per scene; every figure is the best of $REPS rounds for the mesh and $OFFICE_REPS for the office
  (daylit and RADIANCE interleaved).
daylit: closest-hit (bench-rays), rayon threads. RADIANCE: rtrace -h -ff -oL -n 1 (first-hit distance,
  no shading); on 2 threads, two such processes side by side, each on half the rays (cast-only rtrace
  ignores -n: rtrace -n 2 stays one process, shown below the table). RADIANCE's ray rate has its
  start-up time (a one-ray run) subtracted; "RAD+load" is the whole rtrace run.

Ray throughput (Mrays/s)
$(printf '%-7s %7s %7s %6s %9s %6s %7s %9s %7s' scene threads daylit /core RADIANCE /core ratio RAD+load ratio)
${ROW[mesh]}
${ROW[office]}
(ratio = daylit / RADIANCE at the same thread count; /core = Mrays/s / threads)
${PAIRED[mesh]}
${PAIRED[office]}
${ANY[mesh]}
${ANY[office]}

Loading the $mesh_shapes-triangle OBJ
  daylit load+build (parse OBJ, build BVH)  $mesh_lb s  (target 3 s: $(awk -v t="$mesh_lb" 'BEGIN { print (t <= 3 ? "met" : "MISSED") }'))
  RADIANCE obj2mesh + oconv                 $(calc "$t_obj2mesh + $t_oconv") s  (obj2mesh $t_obj2mesh s, oconv $t_oconv s; a one-time conversion)
  ${LOADS[mesh]}
Office ($office_shapes shapes): daylit load+build $office_lb s; RADIANCE oconv $t_oconv_office s
  ${LOADS[office]}

Agreement (hit = positive first-hit distance below 1e10; a miss in rtrace -oL is >= 1e10 or 0)
${AGREE[mesh]}
${AGREE[office]}
EOF
