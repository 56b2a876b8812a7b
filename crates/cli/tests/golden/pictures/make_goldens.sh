#!/bin/bash
# Regenerates the pfilt and pcompos goldens here with RADIANCE 6.0a (scripts/setup-reference.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
bin=$root/.venv-ref/lib/python3.11/site-packages/pyradiance/bin
export RAYPATH=.:$root/.venv-ref/lib/python3.11/site-packages/pyradiance/lib
cd "$here"
# Inputs: a smooth picture with a hot corner, and a small one.
"$bin/pcomb" -x 40 -y 30 -e 'ro=x/8+if(x-36,if(y-26,400,0),0);go=y/15;bo=(x+y)/40' > in.hdr
"$bin/pcomb" -x 9 -y 7 -e 'ro=1;go=x/9;bo=y/7' > small.hdr
"$bin/pfilt" -r 0.6 -x /2 -y /2 in.hdr > pfilt_gauss_half.hdr
"$bin/pfilt" -x /3 -y /3 in.hdr > pfilt_box_third.hdr
"$bin/pfilt" -1 -e +1 -er 2 -x 25 -y 11 in.hdr > pfilt_one_pass.hdr
"$bin/pfilt" -a -r 0.5 -x 64 -y 48 in.hdr > pfilt_up.hdr
# The threshold filter (-m), as rad's HIGH quality uses it; a picture with one bright pixel.
"$bin/pcomb" -x 48 -y 36 -e 'lo=if(x-29.5,if(30.5-x,if(y-9.5,if(10.5-y,5000,.5),.5),.5),.5)+x/100' > spot.hdr
"$bin/pfilt" -m .25 -x /3 -y /3 in.hdr > pfilt_threshold_third.hdr
"$bin/pfilt" -1 -e 2 -m .1 -r .8 -x /2 -y /2 in.hdr > pfilt_threshold_half.hdr
"$bin/pfilt" -1 -m .25 -x /3 -y /3 spot.hdr > pfilt_threshold_spot.hdr
"$bin/pfilt" -1 -m .25 -x 60 -y 45 spot.hdr > pfilt_threshold_up.hdr
"$bin/pcompos" -a 2 -s 3 in.hdr small.hdr small.hdr > pcompos_rows.hdr
"$bin/pcompos" -b 1 0 0.5 -x 50 -y 40 in.hdr 0 0 =00 small.hdr 45 35 > pcompos_placed.hdr
# Labels (psign, found on the PATH, with helvet.fnt here) and thresholds.
PATH=$bin:$PATH "$bin/pcompos" -a 2 -la -lh 12 in.hdr -l Second small.hdr > pcompos_labels.hdr
"$bin/pcompos" in.hdr 0 0 -t 0.1 +t 0.3 small.hdr 5 5 +t 0.2 small.hdr 30 2 > pcompos_thresholds.hdr
# pvalue: positions and values; original values as doubles; brightness; non-interleaved.
"$bin/pvalue" small.hdr > pvalue_default.txt
"$bin/pvalue" -o -h -H -dd pfilt_gauss_half.hdr > pvalue_original.bin
"$bin/pvalue" -b -e +1 small.hdr > pvalue_bright.txt
"$bin/pvalue" -n -d -R small.hdr > pvalue_planes.txt
# pcomb: offsets and positions; scaled inputs resized; no input at all.
"$bin/pcomb" -e 'ro=ri(1,2,-1);go=gi(1,-1,3);bo=bi(1)*x/xres+y' in.hdr > pcomb_offsets.hdr
"$bin/pcomb" -x xmax/3 -y 'ymax*2' -s 0.5 in.hdr -o -c 1 0 2 in.hdr > pcomb_sum.hdr
"$bin/pcomb" -x 10 -y 8 -e 'lo=x*y/PI' > pcomb_noinput.hdr
# rmtxop with pictures: a picture as an ASCII matrix; a transposed grey picture.
"$bin/rmtxop" -fa small.hdr > rmtxop_small.txt
"$bin/rmtxop" -fc -t small.hdr -c 0.3 0.3 0.3 > rmtxop_grey.hdr
# pextrem: extrema of a picture; with -o, its exposure undone; from standard input.
"$bin/pextrem" in.hdr > pextrem_in.txt
"$bin/pextrem" -o pfilt_gauss_half.hdr > pextrem_original.txt
"$bin/pextrem" < small.hdr > pextrem_small.txt
# ra_rgbe: a picture re-encoded with an exposure shift; a three-frame stream (dctimestep of two
# component pictures) split into files, and one frame of it picked. Run through PATH, so that
# the name ra_rgbe writes into the header is "ra_rgbe".
cp in.hdr c0.hdr && cp in.hdr c1.hdr
printf '#?RADIANCE\nNROWS=2\nNCOLS=3\nNCOMP=3\nFORMAT=ascii\n\n1 1 1\t0.5 0.5 0.5\t2 2 2\n0 0 0\t1 0 1\t0.25 0.5 1\n' > frames.mtx
"$bin/dctimestep" c%d.hdr frames.mtx > frames.hdr 2> /dev/null
rm -f c0.hdr c1.hdr frames.mtx ra_rgbe_f*.hdr
PATH="$bin:$PATH" ra_rgbe -r -e -2 in.hdr > ra_rgbe_in.hdr
PATH="$bin:$PATH" ra_rgbe frames.hdr ra_rgbe_f%d.hdr
PATH="$bin:$PATH" ra_rgbe -n 1 -r frames.hdr > ra_rgbe_n1.hdr
