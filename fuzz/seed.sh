#!/bin/sh
# Builds the seed corpora under fuzz/corpus/<target>/ from the repository's own files.
# Run from the repository root: sh fuzz/seed.sh
set -eu
cd "$(dirname "$0")/.."
C=${CORPUS:-fuzz/corpus}
mkdir -p $C/scene_text $C/scene_archive $C/cal_text $C/radiance_binary

# radiance_binary: RADIANCE-made octrees and meshes of the tests and the RADIANCE scene suite.
for f in crates/cli/tests/golden/octree/*.oct crates/cli/tests/golden/octree/*.rtm \
         crates/scene/tests/scenes/*.oct crates/scene/tests/scenes/*.rtm \
         validation/radiance_scenes/scenes/cab.rtm; do
    [ -f "$f" ] && cp "$f" "$C/radiance_binary/$(echo "$f" | tr '/.' '__')"
done

# scene_text: example and golden scenes, scenes used by the loader tests, and the golden
# xform/genbox command lines as inline commands (fed by genbox, since cwd is empty).
for f in examples/office/*.rad crates/scene/tests/golden/*.rad crates/scene/tests/golden/*/*.rad \
         crates/scene/tests/scenes/*.rad; do
    cp "$f" "$C/scene_text/$(echo "$f" | tr '/.' '__')"
done
# The golden fragments use a modifier "mat" they do not define.
for f in crates/scene/tests/golden/*/*.rad; do
    { echo 'void plastic mat 0 0 5 .5 .5 .5 0 0'; cat "$f"; } > "$C/scene_text/mat_$(echo "$f" | tr '/.' '__')"
done
i=0
grep -v '^#' crates/scene/tests/golden/cases.txt crates/scene/tests/golden/cases_geometry.txt \
  | cut -d: -f2- | while IFS= read -r line; do
    i=$((i + 1))
    case "$line" in
      xform*) printf 'void plastic mat 0 0 5 .5 .5 .5 0 0\n!genbox mat box 1 2 3 | %s\n' \
                "$(echo "$line" | sed 's/ base\.rad$//')" > "$C/scene_text/case_$i" ;;
      genbox*) printf 'void plastic mat 0 0 5 .5 .5 .5 0 0\n!%s\n' "$line" > "$C/scene_text/case_$i" ;;
    esac
done

# cal_text: the embedded library, the scene-test function file, the cal test fixtures, and
# every string literal of the cal tests that looks like .cal text or an expression.
for f in crates/cal/src/lib/*.cal crates/scene/tests/scenes/pattern.cal \
         crates/cal/tests/golden/*; do
    cp "$f" "$C/cal_text/$(echo "$f" | tr '/.' '__')"
done
python3 - "$C/cal_text" crates/cal/tests/*.rs <<'PY'
import re, sys, hashlib, os
out = sys.argv[1]
n = 0
for f in sys.argv[2:]:
    src = open(f).read()
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', src):
        s = m.group(1).encode().decode('unicode_escape')
        if len(s) < 3 or not re.search(r'[=(+*^/-]', s):
            continue
        name = "lit_" + hashlib.sha1(s.encode()).hexdigest()[:12]
        open(os.path.join(out, name), "w").write(s)
        n += 1
print(f"{n} string literals from cal tests", file=sys.stderr)
PY

# scene_archive: real encoded scenes (whole files and bare payloads).
cargo run -q --release --manifest-path fuzz/Cargo.toml --example make_seeds -- \
    $C/scene_archive examples/office/*.rad crates/scene/tests/golden/*.rad \
    crates/scene/tests/golden/*/*.rad crates/scene/tests/scenes/*.rad
for t in scene_text scene_archive cal_text radiance_binary; do
    echo "$t: $(ls $C/$t | wc -l) seeds"
done
