"""Annual studies on a Dask cluster (dask.distributed): one task per shard, merged to the
numbers a single process computes, bit for bit.

A study is cut into shards (``daylit_coefficients::shards`` in the Rust library): sensor shards
trace a block of sensors (daylight coefficients and direct sun; sensor ``k`` always draws the
random numbers of index ``k``), product shards multiply a traced block by the sky matrices over
a run of patch blocks. Every sum is taken in one canonical order, so the merge equals
``Study.run()`` in one process whatever the layout, the cluster or the order tasks finish in.

Shards are retried when they fail (``retries``); results are fetched to the client as each
task finishes, so a worker that dies loses no finished shard (Dask reruns what it was running,
and retraces a block whose products still need it).

On one machine::

    from daylit.distributed import Study, run_annual
    study = Study(["office.rad"], sensors, "city.epw")      # sensors: N x 6 array
    year = run_annual(study, n_workers=4)                    # a LocalCluster of 4 processes

On a cluster, start ``dask scheduler`` and ``dask worker tcp://HOST:8786`` on the machines
(each with this package installed and the scene and weather files at the same paths), then::

    from distributed import Client
    year = run_annual(study, client=Client("tcp://HOST:8786"))
"""

from __future__ import annotations

import math
import os
import uuid
from dataclasses import dataclass
from typing import Callable, Optional, Sequence, Union

import numpy as np

from . import _daylit

PathLike = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True)
class AnnualResult:
    """The year of a study: float32 arrays of sensors x time steps, lux."""

    total: np.ndarray
    """Illuminance, five-phase: DC.S - DC_d.S_ds + E_sun (what ``daylit annual`` reports)."""
    two_phase: np.ndarray
    """DC.S alone (sun blurred over the sky patches)."""
    direct_sun: np.ndarray
    """The direct sun alone, a point at its true position each step (ASE)."""

    @classmethod
    def _from_dict(cls, d: dict) -> "AnnualResult":
        return cls(total=d["total"], two_phase=d["two_phase"], direct_sun=d["direct_sun"])


class Study:
    """An annual two-phase study as ``daylit annual`` runs it, described by its inputs.

    ``scene``: scene files (no sky); ``sensors``: an N x 6 array of ``x y z dx dy dz``;
    ``weather``: EPW, WEA or TMY3 CSV. ``ab``, ``ad``, ``lw``, ``seed``: tracing settings (the
    defaults are ``daylit annual``'s); ``mf``: Reinhart subdivision; ``patch_blocks``: the
    number of canonical patch blocks the products are summed in (part of the numbers, like the
    seed; 1 is ``daylit annual``'s single sum). Paths are made absolute here and must be
    readable by every worker. Bad sensors raise :class:`daylit.SensorError` and bad settings
    :class:`daylit.OptionsError` here; scene and weather files that cannot be read raise
    :class:`daylit.SceneError` / :class:`daylit.WeatherError` (with ``file`` and ``line``) when
    the study is first run.
    """

    def __init__(
        self,
        scene: Sequence[PathLike],
        sensors: np.ndarray,
        weather: PathLike,
        *,
        ab: int = 10,
        ad: int = 4096,
        lw: float = 1e-5,
        seed: int = 1,
        mf: int = 1,
        patch_blocks: int = 1,
        allow_commands: bool = False,
        raypath: Optional[Sequence[PathLike]] = None,
    ) -> None:
        sensors = np.ascontiguousarray(sensors, dtype=np.float64)
        self.sensors = len(sensors)
        self.spec: bytes = _daylit.shard_study(
            [os.path.abspath(p) for p in scene],
            sensors,
            os.path.abspath(weather),
            ab=ab,
            ad=ad,
            lw=lw,
            seed=seed,
            mf=mf,
            patch_blocks=patch_blocks,
            allow_commands=allow_commands,
            raypath=None if raypath is None else [os.path.abspath(p) for p in raypath],
        )

    def run(self) -> AnnualResult:
        """The whole study in this process (all its threads): what a cluster run equals."""
        return AnnualResult._from_dict(_daylit.shard_run(self.spec))


def _trace(study: bytes, shard: bytes, run: str) -> bytes:
    return _daylit.shard_trace(study, shard, run)


def _product(study: bytes, traced: bytes, shard: bytes, run: str) -> bytes:
    return _daylit.shard_product(study, traced, shard, run)


def run_annual(
    study: Study,
    *,
    client=None,
    n_workers: int = 2,
    threads_per_worker: Optional[int] = None,
    sensors_per_shard: Optional[int] = None,
    patch_blocks_per_shard: int = 1,
    retries: int = 3,
    progress: Optional[Callable[[int, int], None]] = None,
) -> AnnualResult:
    """Runs ``study`` as Dask tasks and merges the shards.

    ``client``: a ``distributed.Client`` of any cluster; without one, a ``LocalCluster`` of
    ``n_workers`` processes is started for the run and closed after it, each worker tracing
    with ``threads_per_worker`` threads (default: the CPUs shared out). ``sensors_per_shard``:
    sensors per task (default: about four tasks per worker thread); ``patch_blocks_per_shard``:
    canonical patch blocks per product task. ``retries``: how often a failed shard is rerun.
    ``progress(done, total)`` is called on the client as each shard's result arrives.
    """
    from distributed import Client, LocalCluster, as_completed

    own = None
    if client is None:
        threads = threads_per_worker or max(1, (os.cpu_count() or 1) // n_workers)
        cluster = LocalCluster(
            n_workers=n_workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            env={"RAYON_NUM_THREADS": str(threads)},
        )
        own = (cluster, Client(cluster))
        client = own[1]
    try:
        if sensors_per_shard is None:
            slots = max(1, sum(client.nthreads().values()))
            sensors_per_shard = max(1, math.ceil(study.sensors / (4 * slots)))
        plan, sensor_shards, product_shards = _daylit.shard_plan(
            study.spec, sensors_per_shard, patch_blocks_per_shard
        )
        # Names this run's tasks; workers load the study once per run (files read afresh).
        run = uuid.uuid4().hex[:8]
        traced = [
            client.submit(
                _trace, study.spec, s, run, key=f"daylit-trace-{run}-{i}", retries=retries
            )
            for i, s in enumerate(sensor_shards)
        ]
        products = [
            client.submit(
                _product,
                study.spec,
                traced[i],
                p,
                run,
                key=f"daylit-product-{run}-{k}",
                retries=retries,
            )
            for k, (i, p) in enumerate(product_shards)
        ]
        kind = {f.key: ("trace", i) for i, f in enumerate(traced)}
        kind.update({f.key: ("product", k) for k, f in enumerate(products)})
        got = {"trace": [None] * len(traced), "product": [None] * len(products)}
        total = len(kind)
        # Each result is fetched as soon as its task ends: a worker lost later costs nothing
        # already finished.
        for done, (future, result) in enumerate(
            as_completed(traced + products, with_results=True), start=1
        ):
            what, index = kind[future.key]
            got[what][index] = result
            if progress is not None:
                progress(done, total)
        return AnnualResult._from_dict(_daylit.shard_merge(plan, got["trace"], got["product"]))
    finally:
        if own is not None:
            own[1].close()
            own[0].close()
