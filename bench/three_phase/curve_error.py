"""One line of curve.sh's results: engine|options|seconds|mean|p95|largest, the per-sensor
relative differences (in %) of a run's annual mean illuminance against the reference's.
    python3 curve_error.py REF.txt RUN.txt ENGINE OPTIONS SECONDS
"""
import sys


def values(path):
    """The first number of each data line of an rmtxop -fa output (its header skipped)."""
    text = open(path).read()
    body = text.split("\n\n", 1)[1] if text.startswith("#?") else text
    return [float(line.split()[0]) for line in body.splitlines() if line.strip()]


ref, run = values(sys.argv[1]), values(sys.argv[2])
assert len(ref) == len(run) > 0, (len(ref), len(run))
diffs = sorted(abs(b - a) / a * 100 for a, b in zip(ref, run))
mean = sum(diffs) / len(diffs)
p95 = diffs[int(0.95 * (len(diffs) - 1))]
print(f"{sys.argv[3]}|{sys.argv[4]}|{float(sys.argv[5]):.2f}|{mean:.2f}|{p95:.2f}|{diffs[-1]:.2f}")
