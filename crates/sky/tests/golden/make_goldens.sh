#!/usr/bin/env bash
# Regenerates the gensky and gendaylit goldens with RADIANCE 6.0a (scripts/setup-reference.sh
# installs it into .venv-ref). Each golden is the program's standard output; its first line
# ("# gensky ARGS") carries the arguments, which the tests read back and run through daylit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
site=$(echo "$root"/.venv-ref/lib/python3*/site-packages/pyradiance)
export PATH="$site/bin:$PATH" RAYPATH=".:$site/lib"

gensky_cases=(
  "3 21 12"
  "3 21 12 -s"
  "3 21 12 +i"
  "3 21 12 -i"
  "3 21 12 -c"
  "3 21 12 -u"
  "6 21 12 -a 40 -o 105 -m 105 +s"
  "12 21 9 -a 40 -o 105 -m 105 +s"
  "12 21 20 -a 40 -o 105 -m 105 +s"
  "12 21 20 -a 40 -o 105 -m 105 -c"
  "6 21 +12 -a 40 -o 105 -m 105"
  "6 21 +8.5 -a -33.9 -o -151.2 -m -150 +s"
  "12 21 14 -a -33.9 -o -151.2 -m -150 +s"
  "6 21 14 -a -33.9 -o -151.2 -m -150 +i"
  "7 4 15:30 -a 51.5 -o 0.1 -m 0 -c"
  "9 10 10EDT -a 42.36 -o 71.06 +s"
  "9 10 10cet -a 52.5 -o -13.4 -m 0 +s"
  "-ang 45 30 +s"
  "-ang 60 -120 +i"
  "-ang 30 0 -c -b 20"
  "3 21 12 -g 0.5 -t 4"
  "3 21 12 -b 15"
  "3 21 12 -B 100 -c"
  "3 21 12 -r 5e6"
  "3 21 12 -R 800"
  "3 21 12 +i -R 500 -g 0.3"
  "6 21 +12 -a 23.4 -o 0 -m 0 +s"
  "6 21 +12 -a 23.4 -o 0 -m 0 -c"
  "6 21 10 -y 2020 -a 40 -o 105 -m 105"
  "2 29 10 -a 40 -o 105 -m 105 +i -y 2024"
  "11 15 16 -a 60 -o -25 -m -30 -u -B 50"
  "1 1 12 -a 70 -o -20 -m -15 +s"
  "3 21 12 -s -r 1000"
  "3 21 7 -u -g 0"
  "-ang 5 100 +s -t 6"
  "8 15 13:45 -a 35 -o 139.7 -m 135 +i -t 3"
)
gendaylit_cases=(
  "6 21 12 -a 40 -o 105 -m 105 -W 850 120"
  "6 21 9 -a 40 -o 105 -m 105 -W 500 200"
  "12 21 12 -a 40 -o 105 -m 105 -W 50 250"
  "12 21 12 -a 40 -o 105 -m 105 -W 0 150"
  "3 21 10 -a 40 -o 105 -m 105 -G 400 150"
  "3 21 14 -a 40 -o 105 -m 105 -L 80000 15000"
  "3 21 14 -a 40 -o 105 -m 105 -L 20000 25000"
  "6 21 12 -a 40 -o 105 -m 105 -W 850 120 -O 1"
  "6 21 12 -a 40 -o 105 -m 105 -W 850 120 -O 2"
  "6 21 12 -a 40 -o 105 -m 105 -W 500 200 -s"
  "-ang 40 20 -W 700 100"
  "6 21 +12 -a 52 -o -13 -m -15 -W 600 150 -g 0.3"
  "12 21 21 -a 40 -o 105 -m 105 -W 0 0"
  "12 21 12 -a -33.9 -o -151.2 -m -150 -W 900 100"
  "9 1 11 -a 40 -o 105 -m 105 -W 300 280"
  "9 1 11 -a 40 -o 105 -m 105 -W 150 300 -O 1"
  "4 15 16 -a 40 -o 105 -m 105 -G 200 180 -O 2"
  "6 21 10 -y 2020 -a 40 -o 105 -m 105 -W 700 150"
  "3 21 12 -a 40 -o 105 -m 105 -P 3 0.3"
  "3 21 12 -a 40 -o 105 -m 105 -E 600"
  "12 21 8.5 -a 40 -o 105 -m 105 -W 300 60"
  "6 21 12 -a 40 -o 105 -m 105 -L 95000 12000 -O 1"
)

run() { # program, directory, cases...
  local prog=$1 dir=$2 n=0
  shift 2
  rm -f "$here/$dir"/case_*.txt
  for args in "$@"; do
    n=$((n + 1))
    # shellcheck disable=SC2086 # the words of a case are meant to split
    (cd "$here" && "$prog" $args) >"$here/$dir/$(printf 'case_%02d.txt' "$n")" 2>/dev/null
  done
}
run gensky gensky "${gensky_cases[@]}"
run gendaylit gendaylit "${gendaylit_cases[@]}"
echo "wrote ${#gensky_cases[@]} gensky and ${#gendaylit_cases[@]} gendaylit goldens"
