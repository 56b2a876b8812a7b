# The settings both RADIANCE (make_goldens.sh) and daylit (the test) render the cases with:
# one ambient bounce without a cache and many samples, so that both are near convergence;
# RADIANCE's render.opt (-st .02 -ss 32) kept; pictures trace every pixel at its centre.
RES=40
SETTINGS="-ab 1 -aa 0 -ad 2048 -as 0 -lr 8 -lw 1e-5 -dj 0 -ds .2 -st .02 -ss 32 -av 0 0 0"
PICTURE="-ps 1 -pj 0"
