# robjutil's -x takes its transform as one word with spaces, which cases.txt's words cannot
# hold: each line of xcases.txt is a shell command line's arguments (quotes honoured), run in
# inputs/ by make_cases.sh's RADIANCE; standard output to out/xN, exit code to out/xN.rc.
set -euo pipefail
n=0
while IFS= read -r line; do
    n=$((n + 1))
    set +e
    eval "set -- $line"
    (cd inputs && robjutil "$@" < /dev/null > "../out/x$n" 2> /dev/null)
    echo $? > "out/x$n.rc"
    set -e
done < xcases.txt
