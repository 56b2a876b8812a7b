"""Scaling of daylit.distributed on the bundled annual example (BENCHMARKS.md, "Annual studies
on Dask"): the reference office in Greensboro on a LocalCluster of 1 and then 2 worker
processes of one tracing thread each, against the single process, with the results checked bit
for bit. Run with the wheel's venv (bash scripts/python-wheel.sh):

    .venv-py/bin/python bench/dask_scaling.py [--spacing 0.3] [--ab 10] [--ad 4096] [--per-shard 8]
"""

import argparse
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    a = argparse.ArgumentParser()
    a.add_argument("--spacing", type=float, default=0.3)
    a.add_argument("--ab", type=int, default=10)
    a.add_argument("--ad", type=int, default=4096)
    a.add_argument("--lw", type=float, default=1e-5)
    a.add_argument("--per-shard", type=int, default=8)
    a.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = a.parse_args()
    # One tracing thread per process everywhere, so that workers are the only parallelism.
    os.environ["RAYON_NUM_THREADS"] = "1"
    from daylit.distributed import Study, run_annual
    from distributed import Client, LocalCluster, get_task_stream

    s = args.spacing
    xs, ys = np.arange(s / 2, 3.6, s), np.arange(s / 2, 8.2, s)
    sensors = np.array([[x, y, 0.8, 0, 0, 1] for y in ys for x in xs], dtype=float)
    study = Study(
        [ROOT / "examples/reference_office/office.rad"],
        sensors,
        ROOT / "examples/weather/723170TYA.CSV",
        ab=args.ab,
        ad=args.ad,
        lw=args.lw,
    )
    print(f"{len(sensors)} sensors, ab {args.ab}, ad {args.ad}, {args.per_shard} sensors a shard")
    t = time.perf_counter()
    single = study.run()
    print(f"single process, 1 thread: {time.perf_counter() - t:.1f} s")
    # The same in a process of 2 threads: what this machine gives a second thread.
    code = (
        "import pickle, sys, time; from daylit.distributed import Study; "
        "s = pickle.loads(sys.stdin.buffer.read()); t = time.perf_counter(); s.run(); "
        "print(f'single process, 2 threads: {time.perf_counter() - t:.1f} s')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=pickle.dumps(study),
        env=dict(os.environ, RAYON_NUM_THREADS="2"),
        capture_output=True,
        check=True,
    )
    print(out.stdout.decode().strip())
    for n in args.workers:
        with LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            env={"RAYON_NUM_THREADS": "1"},
        ) as c, Client(c) as client:
            # Warm the workers (imports), then time the run; the task stream gives the
            # seconds spent in shards.
            client.run(lambda: __import__("daylit.distributed"))
            with get_task_stream(client) as ts:
                t = time.perf_counter()
                year = run_annual(study, client=client, sensors_per_shard=args.per_shard)
                dt = time.perf_counter() - t
            busy = {"trace": 0.0, "product": 0.0}
            for task in ts.data:
                for ss in task["startstops"]:
                    if ss["action"] == "compute":
                        kind = "trace" if "trace" in task["key"] else "product"
                        busy[kind] += ss["stop"] - ss["start"]
        same = all(
            getattr(year, k).tobytes() == getattr(single, k).tobytes()
            for k in ("total", "two_phase", "direct_sun")
        )
        print(
            f"{n} worker(s): {dt:.1f} s (shards busy: trace {busy['trace']:.1f} s, "
            f"product {busy['product']:.2f} s), bit-equal to the single process: {same}"
        )


if __name__ == "__main__":
    main()
