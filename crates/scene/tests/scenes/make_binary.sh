#!/bin/sh
# Regenerates the RADIANCE binary files all_types.rad places (RADIANCE 6.0a oconv, obj2mesh):
# a frozen octree of one plastic square, and a compiled mesh of two triangles.
set -e
cd "$(dirname "$0")"
printf 'void plastic seat\n0\n0\n5 .5 .4 .3 0 0\nseat polygon top\n0\n0\n12 0 0 .45 .5 0 .45 .5 .5 .45 0 .5 .45\n' | oconv -f - > chair.oct
printf 'v 0 0 0\nv 2 0 0\nv 2 1 0\nv 0 1 0\nusemtl cushion\nf 1 2 3 4\n' > /tmp/sofa.obj
printf 'void plastic cushion\n0\n0\n5 .2 .3 .6 0 0\n' > /tmp/sofa.mat
obj2mesh -a /tmp/sofa.mat /tmp/sofa.obj sofa.rtm
rm -f /tmp/sofa.obj /tmp/sofa.mat
