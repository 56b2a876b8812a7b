#!/usr/bin/env bash
# The picture mean tests/rad.rs compares daylit's rad run with: RADIANCE 6.0a's rad on the
# wgmdf test scene (inputs/), same arguments, mean of the picture's values over all pixels
# and channels, into wgmdf_def.mean.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
eval "$("$root/scripts/setup-reference.sh" | grep '^export')"
export PATH="$RADIANCE_BIN:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$here/inputs/." "$work/"
cd "$work"
rad -v def wgmdf.rif RES=48 "render=-aa 0 -ab 1 -ad 256 -as 0" > /dev/null
pvalue -h -H -d wgmdf_def.hdr | awk '{ s += ($1 + $2 + $3) / 3; n++ } END { printf "%.6g\n", s / n }' \
    > "$here/wgmdf_def.mean"
cat "$here/wgmdf_def.mean"

# RADIANCE's tfunc test scene, whose window becomes a light source through mkillum (the rad
# file's `illum`): octree, mkillum and oconv -f through rad, then the picture, without
# ambient or jitter so that the means compare closely.
work2=$(mktemp -d)
trap 'rm -rf "$work" "$work2"' EXIT
scenes="$root/validation/radiance_scenes/scenes"
for f in basic.mat diorama_walls.rad rect_opening.rad front_cap.rad ball_in_cube.rad \
    sunset_sky.rad sunset.hdr fisheye.cal aniso.cal illum_tfunc.rad inside.vf; do
    cp "$scenes/$f" "$work2/"
done
cp "$root/validation/radiance_scenes/rif/tfunc.rif" "$root/validation/radiance_scenes/rif/render.opt" "$work2/"
cd "$work2"
rad -v def tfunc.rif RES=32 "mkillum=-ab 0" "render=-ab 0 -aa 0 -dj 0 -ps 1 -pj 0" > /dev/null
pvalue -h -H -d tfunc_def.hdr | awk '{ s += ($1 + $2 + $3) / 3; n++ } END { printf "%.6g\n", s / n }' \
    > "$here/tfunc_def.mean"
cat "$here/tfunc_def.mean"
