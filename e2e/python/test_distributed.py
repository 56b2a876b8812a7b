"""daylit.distributed: the bundled annual example (examples/reference_office in Greensboro) run
as Dask tasks on a LocalCluster of 2 worker processes equals the single-process run bit for
bit, also when a worker process is killed in the middle of the run. A coarser sensor grid and
lighter tracing than `daylit annual`'s defaults keep it quick; equality of bits depends on
neither."""

import os
import signal
from pathlib import Path

import numpy as np
import pytest

import daylit
from daylit import OptionsError, SceneError, SensorError
from daylit.distributed import Study, run_annual

ROOT = Path(__file__).resolve().parents[2]
SCENE = ROOT / "examples/reference_office/office.rad"
WEATHER = ROOT / "examples/weather/723170TYA.CSV"


def grid(spacing: float) -> np.ndarray:
    """Sensors 0.8 m above the office floor (3.6 x 8.2 m), facing up."""
    xs = np.arange(spacing / 2, 3.6, spacing)
    ys = np.arange(spacing / 2, 8.2, spacing)
    return np.array([[x, y, 0.8, 0.0, 0.0, 1.0] for y in ys for x in xs])


def study(**kw) -> Study:
    settings = dict(ab=2, ad=256, lw=1e-3, seed=3)
    settings.update(kw)
    return Study([SCENE], grid(0.7), WEATHER, **settings)


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def assert_same(a, b):
    for name in ("total", "two_phase", "direct_sun"):
        assert same_bits(getattr(a, name), getattr(b, name)), name


@pytest.fixture(scope="module")
def cluster():
    from distributed import Client, LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        env={"RAYON_NUM_THREADS": "1"},
    ) as c, Client(c) as client:
        yield client


def test_local_cluster_equals_single_process(cluster):
    s = study()
    single = s.run()
    assert single.total.shape == (s.sensors, 8760)
    assert single.total.max() > 1000.0  # a lit year
    # The single-process study is `daylit annual`'s own two-phase run (annual_illuminance).
    own = daylit.Scene([str(SCENE)]).annual_illuminance(
        grid(0.7), daylit.Weather(str(WEATHER)), ab=2, ad=256, lw=1e-3, seed=3
    )
    for name in ("total", "two_phase", "direct_sun"):
        assert same_bits(own[name], getattr(single, name)), name
    for per_shard in (1, 5):
        year = run_annual(s, client=cluster, sensors_per_shard=per_shard)
        assert_same(year, single)
    # Three canonical patch blocks, multiplied two by two in the product tasks.
    s3 = study(patch_blocks=3)
    year = run_annual(s3, client=cluster, sensors_per_shard=4, patch_blocks_per_shard=2)
    assert_same(year, s3.run())


def test_killed_worker_is_survived(cluster):
    s = study(ad=512, ab=3)
    single = s.run()
    pids = cluster.run(os.getpid)
    killed = []

    def kill_one(done, total):
        if not killed and done >= 2 and done < total:
            addr, pid = sorted(pids.items())[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    year = run_annual(s, client=cluster, sensors_per_shard=2, progress=kill_one)
    assert killed, "the run ended before a worker could be killed"
    assert killed[0] not in cluster.run(os.getpid).values()
    assert_same(year, single)


def test_own_local_cluster_and_bad_inputs(tmp_path):
    s = study()
    assert_same(run_annual(s, n_workers=2, threads_per_worker=1), s.run())
    with pytest.raises(SensorError, match="N×6"):
        Study([SCENE], np.zeros((3, 5)), WEATHER)
    with pytest.raises(OptionsError, match="patch_blocks 0"):
        study(patch_blocks=0)
    with pytest.raises(OptionsError, match="-ad 0"):
        study(ad=0)
    with pytest.raises(SceneError, match="nowhere.rad"):
        Study([ROOT / "nowhere.rad"], grid(2.0), WEATHER).run()
    # A scene error inside a worker reaches the caller, located, after the retries.
    bad = tmp_path / "bad.rad"
    bad.write_text("void plastic wall_mat\n0\n0\n5 .5 .5 .5 0\n")
    with pytest.raises(SceneError) as e:
        run_annual(Study([bad], grid(2.0), WEATHER), n_workers=1, retries=1)
    assert e.value.file == str(bad) and e.value.line is not None
