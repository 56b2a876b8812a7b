#!/usr/bin/env bash
# Regenerates tests/golden/obj2mesh: the inputs (gen_inputs.py: a cube with face normals, a
# textured quad and concave pentagon, a smooth sphere-ish mesh with groups and two materials,
# odd and malformed files), RADIANCE 6.0a's obj2mesh on every line of cases.txt (out/N, N.rc,
# N.d/ through ../make_cases.sh), then make_more.sh: RADIANCE's oconv and rtrace on the meshes
# it wrote (out/trace_NAME.txt) and the statistics of obj2mesh -v (out/stats_sphere.txt).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python3 "$here/gen_inputs.py"
bash "$here/../make_cases.sh" obj2mesh
