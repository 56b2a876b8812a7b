#!/usr/bin/env bash
# Builds the RADIANCE programs that pyradiance's RADIANCE 6.0a lacks (dcglare, vwright,
# rcollate, rcode_depth, rcode_norm, rcode_ident, rsensor) from RADIANCE's public source with
# the C compiler alone, for the goldens that need them.
# Usage: build-radiance-extras.sh DEST   (writes DEST/dcglare, DEST/vwright, DEST/rcollate,
# DEST/rcode_depth, DEST/rcode_norm, DEST/rcode_ident, DEST/rsensor)
# The source is the checkout RADIANCE_SRC names, else a shallow clone of
# github.com/LBNL-ETA/Radiance.
set -euo pipefail
dest=$(mkdir -p "$1" && cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=${RADIANCE_SRC:-}
if [ -z "$src" ]; then
    git clone -q --depth 1 https://github.com/LBNL-ETA/Radiance "$work/Radiance"
    src=$work/Radiance
fi
cd "$work"
mkdir obj
# RADIANCE's common library (a few platform files do not build here; these programs need none).
for f in "$src"/src/common/*.c; do
    gcc -O2 -w -c -I"$src/src/common" "$f" -o "obj/$(basename "$f" .c).o" 2> /dev/null || true
done
ar rcs libcommon.a obj/*.o
gcc -O2 -w -DDC_GLARE -I"$src/src/common" -I"$src/src/util" \
    "$src"/src/util/{dcglare,cmglare,cmatrix,cmbsdf,cmconst}.c libcommon.a -lm -lpthread \
    -o "$dest/dcglare"
for p in vwright rcollate rcode_depth rcode_norm rcode_ident; do
    gcc -O2 -w -I"$src/src/common" "$src/src/util/$p.c" libcommon.a -lm -o "$dest/$p"
done
# rsensor needs RADIANCE's ray tracing library (src/rt's "radiance" and "raycalls" libraries
# as its CMakeLists.txt lists them, less the photon-map contribution part, which is rcontrib's).
mkdir rt
for f in ambcomp ambient ambio aniso ashikhmin dielectric fprism freeobjmem func glass \
    initotypes m_alias m_brdf m_bsdf m_wgmdf m_clip m_direct m_mirror m_mist mx_data mx_func \
    noise3 normal o_cone o_face o_instance o_mesh p_data p_func pmap pmapamb pmapbias \
    pmapcontrib pmapdata pmapdiag pmapio pmapmat pmapopt pmapparm pmaprand pmapray pmapsrc \
    pmaptype pmutil preload raytrace renderopts source sphere srcobstr srcsamp srcsupp t_data \
    t_func text virtuals raycalls raypcalls rayfifo; do
    gcc -O2 -w -c -I"$src/src/common" -I"$src/src/rt" "$src/src/rt/$f.c" -o "rt/$f.o"
done
echo 'char VersionID[] = "RADIANCE 6.0a (built for daylit goldens)";' > version.c
gcc -O2 -w -I"$src/src/common" -I"$src/src/rt" "$src/src/util/rsensor.c" version.c rt/*.o \
    libcommon.a -lm -lpthread -o "$dest/rsensor"
echo "built dcglare, vwright, rcollate, the rcode programs and rsensor in $dest from $src ($(git -C "$src" rev-parse --short HEAD 2> /dev/null || echo 'not a git checkout'))" >&2
