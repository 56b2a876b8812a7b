#!/usr/bin/env bash
# Regenerates the glare goldens: pictures rendered by RADIANCE's rpict and evalglare 3.06's output on
# each of them, for crates/glare/tests/evalglare_goldens.rs.
#
#   validation/glare/make_goldens.sh              # every case
#   validation/glare/make_goldens.sh 01 14        # only cases whose name starts with these prefixes
#   SKIP_RENDER=1 validation/glare/make_goldens.sh   # keep the pictures, rerun evalglare only
#
# Needs RADIANCE 6.0a (scripts/setup-reference.sh installs it; its evalglare is 3.06). Writes
# validation/glare/goldens/NN_name/:
#   picture.hdr     the rendered picture (RLE RGBE, view in the header)
#   evalglare.txt   for each option set: a line "## evalglare <options>", then evalglare's standard output
# and validation/glare/goldens/MANIFEST.txt (versions, every command line, wall times).
#
# The pictures are inputs, not converged renderings (-ab 2 -ad 256 with the ambient cache); what is
# tested is the evaluation of a given picture. Skies are written by gensky into scenes/ (sky_*.rad).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
eval "$("$root/scripts/setup-reference.sh")"
export PATH="$RADIANCE_BIN:$PATH"   # oconv runs the !genbox/!xform lines through the shell
export RAYPATH                      # skybright.cal
vscenes="$root/validation/scenes"
gscenes="$here/scenes"
goldens="$here/goldens"
mkdir -p "$goldens"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Sun altitude 9000/361 deg: in a 361-pixel angular fisheye looking horizontally both the sun and
# its mirror image fall on pixel centres (the sun is about one pixel wide).
SUN_ALT=24.930747922437675
sky() {   # name, gensky arguments...: gensky's sky function and sun with the usual sky and ground domes
  local f="$gscenes/$1"
  shift
  {
    echo "# made by RADIANCE 6.0a: gensky $*, with glow domes for sky and ground"
    gensky "$@"
    printf '\nskyfunc glow sky_glow\n0\n0\n4 1 1 1 0\n\nsky_glow source sky\n0\n0\n4 0 0 1 180\n'
    printf '\nskyfunc glow ground_glow\n0\n0\n4 1 1 1 0\n\nground_glow source ground\n0\n0\n4 0 0 -1 180\n'
  } > "$f"
}
if [ -z "${SKIP_RENDER:-}" ]; then
  sky sky_sun.rad -ang "$SUN_ALT" 0 +s
  sky sky_overcast.rad -ang 40 0 -c -B 150
  sky sky_lowsun.rad -ang 12 0 +s
  sky sky_dusk.rad -ang 2 0 -c -B 0.6
fi

# Ambient settings for pictures that only need to be plausible inputs.
AMB="-ab 2 -ad 256 -as 64 -aa 0.15 -ar 64 -lr 6 -lw 0.002 -dj 0 -ds 0.2 -dt 0.1 -dc 0.5"
SMOOTH="-ps 4 -pt 0.05 -pj 0 -pa 0"   # adaptive sampling for pictures without the sun in view
SHARP="-ps 1 -pj 0 -pa 0"             # every pixel centre traced: the sun disc is about a pixel

OFFICE="-vp 0.9 4.8 1.2 -vd 0 -1 0 -vu 0 0 1"
LOWSUN="-vp 0.9 3.6 1.2 -vd 0 -1 0 -vu 0 0 1"
ROOM="-vp 1.0 2.0 1.2 -vd 1 0 0 -vu 0 0 1"
FISH="-vh 180 -vv 180"

# name | scene files (oconv order; o: validation/glare/scenes, v: validation/scenes/NN) | view | x y |
# sampling | task pixel for -T (x y from the bottom left) | extra option sets, separated by ';'
# (evalglare with a view on the command line, which replaces the picture's)
cases=(
  "01_outdoor_sun_vta|o:sky_sun.rad o:outdoor.rad|-vta -vp 0 0 1.2 -vd 0 -1 0 -vu 0 0 1 $FISH|361 361|$SHARP|180 120|-vta -vp 0 0 1.2 -vd 0 -1 0 -vu 0 0 1 -vh 170 -vv 170 -d"
  "02_outdoor_sun_vth|o:sky_sun.rad o:outdoor.rad|-vth -vp 0 0 1.2 -vd 0 -1 0 -vu 0 0 1 $FISH|361 361|$SHARP|180 120"
  "03_outdoor_sun_vtv|o:sky_sun.rad o:outdoor.rad|-vtv -vp 0 0 1.2 -vd 0 -1 0 -vu 0 0 1 -vh 80 -vv 60|361 271|$SHARP|180 60"
  "04_outdoor_reflections_vtv|o:sky_sun.rad o:outdoor.rad|-vtv -vp 0 0 1.2 -vd 0 -0.9 -0.44 -vu 0 0 1 -vh 60 -vv 45|321 241|$SHARP|160 60"
  "05_outdoor_overcast_vta|o:sky_overcast.rad o:outdoor.rad|-vta -vp 0 0 1.2 -vd 0 -1 0 -vu 0 0 1 $FISH|361 361|$SMOOTH|180 120"
  "06_office_overcast_vta|v:06_office_overcast/sky.rad v:06_office_overcast/scene.rad|-vta $OFFICE $FISH|361 361|$SMOOTH|180 110|-vth $OFFICE $FISH -d;-vta -vf view.vf -d;-vta -vp 0.9 4.8 1.2 -vd 0 -1 0.2 -vu 0 0 1 $FISH -vs 0.05 -vl -0.03 -d;-vtv $OFFICE -vh 120 -vv 120 -f -d"
  "07_office_overcast_vth|o:sky_overcast.rad v:06_office_overcast/scene.rad|-vth $OFFICE $FISH|361 361|$SMOOTH|180 110"
  "08_office_overcast_vtv|o:sky_overcast.rad v:06_office_overcast/scene.rad|-vtv $OFFICE -vh 90 -vv 70|361 281|$SMOOTH|180 60"
  "09_office_clear_vta|v:07_office_clear_sun/sky.rad v:07_office_clear_sun/scene.rad|-vta $OFFICE $FISH|361 361|$SMOOTH|180 110"
  "10_office_lowsun_vta|o:sky_lowsun.rad v:06_office_overcast/scene.rad|-vta $LOWSUN $FISH|361 361|$SHARP|180 110"
  "11_office_lowsun_vth|o:sky_lowsun.rad v:06_office_overcast/scene.rad|-vth $LOWSUN $FISH|361 361|$SHARP|180 110"
  "12_office_lowsun_vtv|o:sky_lowsun.rad v:06_office_overcast/scene.rad|-vtv $LOWSUN -vh 70 -vv 50|361 251|$SHARP|180 50"
  "13_lightshelf_vta|v:08_lightshelf_mirror/sky.rad v:08_lightshelf_mirror/scene.rad|-vta $OFFICE $FISH|361 361|$SMOOTH|180 110"
  "14_rough_metal_vta|v:10_rough_metal/sky.rad v:10_rough_metal/scene.rad|-vta $OFFICE $FISH|361 361|$SMOOTH|180 110"
  "15_electric_vta|v:12_electric_room/scene.rad|-vta $ROOM $FISH|361 361|$SHARP|180 110"
  "16_electric_luminaires_vtv|v:12_electric_room/scene.rad|-vtv -vp 1.0 2.0 1.2 -vd 1 0 0.55 -vu 0 0 1 -vh 70 -vv 55|321 251|$SHARP|160 60"
  "17_office_dusk_vta|o:sky_dusk.rad v:06_office_overcast/scene.rad|-vta $OFFICE $FISH|361 361|$SMOOTH|180 110"
)

# evalglare option sets run on every picture (the task position is added per case).
variants=(
  "-d"
  ""
  "-D"
  "-b 5 -d"
  "-b 1000 -d"
  "-r 0.3 -d"
  "-s -d"
  "-x -d"
  "-Y 20000 -d"
  "-B 0.35 -d"
  "-q 1 -d"
  "-i 2500 -d"
  "-i 2500"
  "-C l+ -d"
  "-q 2 -d"
  "-P 1 -d"
  "-k 5 -d"
  "TASK"
)

want=("$@")
selected() {
  [ ${#want[@]} -eq 0 ] && return 0
  for p in "${want[@]}"; do case "$1" in "$p"*) return 0 ;; esac; done
  return 1
}

manifest="$goldens/MANIFEST.txt"
if [ ${#want[@]} -eq 0 ]; then
  {
    echo "# daylit glare goldens, regenerated by validation/glare/make_goldens.sh"
    echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)   host: $(uname -srm)   cpus: $(nproc)"
    echo "# RADIANCE: $(rpict -version)   evalglare: $(evalglare -v 2>&1 | head -1)"
    echo "# rpict settings: $AMB ; sampling per case"
  } > "$manifest"
fi

for c in "${cases[@]}"; do
  IFS='|' read -r name files view res sampling task extra <<< "$c"
  selected "$name" || continue
  dir="$goldens/$name"
  mkdir -p "$dir"
  read -r xres yres <<< "$res"
  if [ -z "${SKIP_RENDER:-}" ]; then
    paths=()
    for f in $files; do
      case "$f" in
        o:*) paths+=("$gscenes/${f#o:}") ;;
        v:*) paths+=("$vscenes/${f#v:}") ;;
      esac
    done
    # oconv runs the scenes' inline commands in their own folder.
    (cd "$(dirname "${paths[-1]}")" && oconv "${paths[@]}" > "$tmp/scene.oct")
    start=$(date +%s)
    # shellcheck disable=SC2086
    nice rpict $AMB $sampling $view -x "$xres" -y "$yres" "$tmp/scene.oct" > "$tmp/picture.hdr"
    mv "$tmp/picture.hdr" "$dir/picture.hdr"
    echo "$name: rpict $AMB $sampling $view -x $xres -y $yres  ($(( $(date +%s) - start )) s; scenes: $files)" >> "$manifest"
  fi
  : > "$tmp/evalglare.txt"
  all=("${variants[@]}")
  if [ -n "${extra:-}" ]; then
    IFS=';' read -r -a more <<< "$extra"
    all+=("${more[@]}")
  fi
  echo "rview $view" > "$dir/view.vf"
  for v in "${all[@]}"; do
    [ "$v" = "TASK" ] && v="-T $task 0.4 -d"
    echo "## evalglare $v" >> "$tmp/evalglare.txt"
    # shellcheck disable=SC2086
    (cd "$dir" && evalglare $v picture.hdr) >> "$tmp/evalglare.txt" 2> /dev/null
  done
  mv "$tmp/evalglare.txt" "$dir/evalglare.txt"
  echo "$name: evalglare ${#all[@]} option sets" >> "$manifest"
done
du -sh "$goldens" >&2
