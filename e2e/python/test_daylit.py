"""The Python package against the `daylit` CLI of the same checkout on the bundled examples.

Tolerances: bit-identical (np.array_equal) where the CLI can print the same binary numbers
(rtrace -fad doubles, gendaymtx -of floats) or the same code computes the same JSON; the
relative 1e-6 of C's %.6e where the CLI prints ASCII matrices (daylit annual --ill) and of
evalglare's printed digits (%f/%g); 1e-5 relative for the products recomputed in NumPy
(f32 coefficients times f32 sky in f64 sums).
"""

import json
import re

import numpy as np
import pytest

import daylit
from conftest import OFFICE, WEATHER

SCENE = [OFFICE / "office.rad", OFFICE / "sky.rad"]

# Rays inside the reference office (3.6 × 8.2 × 2.85 m, window at y = 0): toward the
# window, the floor, the ceiling, a wall; and one with a zero direction.
RAYS = np.array(
    [
        [1.8, 4.0, 1.2, 0.0, -1.0, 0.0],
        [1.8, 4.0, 1.2, 0.0, 0.0, -1.0],
        [1.0, 6.0, 0.8, 0.1, 0.2, 1.0],
        [2.5, 2.0, 1.5, -1.0, 0.3, -0.2],
        [1.8, 1.0, 0.8, 0.0, 0.0, 1.0],
        [1.8, 7.0, 0.8, 0.0, 0.0, 1.0],
    ]
)


def rtrace_values(cli, rays, *opts):
    text = "\n".join(" ".join(repr(float(x)) for x in r) for r in rays) + "\n"
    out = cli("rtrace", "-h", "-fad", *opts, *SCENE, stdin=text.encode())
    return np.frombuffer(out, dtype="<f8").reshape(-1, 3)


@pytest.mark.parametrize(
    "opts",
    [
        dict(ab=1, ad=128, aa=0, seed=3),
        dict(ab=2, ad=64, aa=0.15, ar=32, seed=1),
    ],
)
def test_trace_equals_rtrace(cli, opts):
    scene = daylit.Scene(SCENE)
    words = []
    for k, v in opts.items():
        words += [f"-{k}", str(v)]
    got = scene.trace(RAYS, **opts)
    assert got.shape == (len(RAYS), 3) and got.dtype == np.float64
    assert np.array_equal(got, rtrace_values(cli, RAYS, *words))
    assert np.all(got[-1] >= 0) and np.any(got[:2] > 0)


def test_irradiance_equals_rtrace_I(cli):
    scene = daylit.Scene(SCENE, ab=1, ad=128, aa=0)
    sensors = np.array([[1.8, y, 0.8, 0, 0, 1] for y in (1.0, 3.0, 6.0)])
    got = scene.trace(sensors, irradiance=True)
    want = rtrace_values(cli, sensors, "-I+", "-ab", "1", "-ad", "128", "-aa", "0")
    assert np.array_equal(got, want)
    lux = 179 * got @ np.array([0.265, 0.670, 0.065])
    assert lux[0] > lux[1] > lux[2] > 0  # darker away from the window


def read_float_matrix(out):
    head, _, body = out.partition(b"\n\n")
    h = dict(l.split("=", 1) for l in head.decode().splitlines() if "=" in l)
    rows, cols, comp = int(h["NROWS"]), int(h["NCOLS"]), int(h["NCOMP"])
    assert h["FORMAT"].strip() == "float"
    return np.frombuffer(body, dtype="<f4").reshape(rows, cols, comp)


def test_sky_matrix_equals_gendaymtx(cli):
    weather = daylit.Weather(WEATHER)
    assert len(weather) == 8760 and weather.format == "tmy3"
    got = daylit.sky_matrix(weather, m=1)
    assert got.shape == (146, 8760, 3) and got.dtype == np.float32
    want = read_float_matrix(cli("gendaymtx", "-of", "-m", "1", WEATHER))
    assert np.array_equal(got, want)
    sun = daylit.sky_matrix(weather, m=2, d=True)
    assert np.array_equal(sun, read_float_matrix(cli("gendaymtx", "-of", "-m", "2", "-d", WEATHER)))
    # noon in June is bright, midnight dark
    assert got[1:, 171 * 24 + 12].sum() > 0 and got[:, 0].sum() == 0


def read_ascii_matrix(path):
    text = path.read_text()
    body = text.split("\n\n", 1)[1] if text.startswith("#?") else text
    return np.array([[float(x) for x in l.split()] for l in body.strip().splitlines()])


@pytest.fixture(scope="module")
def annual_run(cli, tmp_path_factory):
    """`daylit annual` on the office (a coarse grid, few samples) and the same in Python."""
    out = tmp_path_factory.mktemp("annual")
    args = ["--floor", "floor", "--spacing", "1.2", "--ab", "2", "--ad", "64", "--seed", "5"]
    cli(
        "annual", OFFICE / "office.rad", "--weather", WEATHER, *args,
        "--json", out / "annual.json", "--ill", out / "annual.ill", "-o", out,
    )
    scene = daylit.Scene([OFFICE / "office.rad"])
    weather = daylit.Weather(WEATHER)
    py = daylit.annual(scene, weather, floor="floor", spacing=1.2, ab=2, ad=64, seed=5)
    return out, scene, weather, py


def test_annual_equals_cli(annual_run):
    out, _, _, py = annual_run
    want = json.loads((out / "annual.json").read_text())
    unc = want.pop("uncertainty")  # the CLI's estimate from its grid's neighbouring sensors
    assert 0 <= unc["sDA"] < 0.1 and unc["ASE"] == 0
    prov = want.pop("provenance")  # how the CLI's file was made: its own command line
    assert prov["seed"] == 5 and prov["settings"]["ad"] == "64"
    assert [i["role"] for i in prov["inputs"]] == ["scene", "weather"]
    assert all(len(i["sha256"]) == 64 for i in prov["inputs"])
    got = {k: v for k, v in py.items() if k not in ("sensors", "illuminance", "direct_sun")}
    assert got == want  # the same code: every number equal
    ill = read_ascii_matrix(out / "annual.ill")
    assert py["illuminance"].shape == ill.shape == (want["sensor_count"], 8760)
    np.testing.assert_allclose(py["illuminance"], ill, rtol=1e-6, atol=0)
    assert 0 < want["sDA"] <= 1


def test_sensor_grid_equals_cli(annual_run):
    out, scene, _, py = annual_run
    lines = (out / "sensors.csv").read_text().splitlines()
    assert lines[0].startswith("# daylit ")  # comment lines say how the file was made
    rows = [l.split(",") for l in lines if not l.startswith("#")][1:]
    xyz = np.array([[float(x) for x in r[:3]] for r in rows])
    grid = scene.sensor_grid("floor", spacing=1.2)
    assert np.array_equal(grid[:, :3], xyz)
    assert np.array_equal(grid, py["sensors"])
    assert np.all(grid[:, 5] == 1.0) and np.allclose(grid[:, 2], 0.8)
    poly = scene.polygon("floor")
    assert np.array_equal(daylit.sensor_grid(poly, spacing=1.2), grid)


def test_metrics_equal_cli(annual_run):
    out, _, weather, py = annual_run
    want = json.loads((out / "annual.json").read_text())
    m = daylit.annual_metrics(py["illuminance"], weather=weather, direct_sun=py["direct_sun"])
    for key in ("method", "provenance", "uncertainty"):
        want.pop(key)
    assert m == want
    # the schedule as flags: 8:00-18:00 by mid-hour time, 3650 hours
    flags = (weather.hour > 8) & (weather.hour < 18)
    assert flags.sum() == 3650
    m2 = daylit.annual_metrics(py["illuminance"], schedule=flags, direct_sun=py["direct_sun"])
    assert m2 == m


def test_coefficients_are_what_annual_uses(annual_run):
    _, scene, weather, py = annual_run
    sensors = py["sensors"][:4]
    dc, direct = scene.daylight_coefficients(sensors, ab=2, ad=64, seed=5, direct=True)
    assert dc.shape == direct.shape == (4, 146, 3) and dc.dtype == np.float32
    assert np.all(direct <= dc + 1e-7)
    sky = daylit.sky_matrix(weather)
    rgb = np.einsum("spc,phc->shc", dc.astype(np.float64), sky.astype(np.float64))
    lux = 179 * rgb @ np.array([0.265, 0.670, 0.065])
    year = scene.annual_illuminance(sensors, weather, ab=2, ad=64, seed=5)
    np.testing.assert_allclose(year["two_phase"], lux, rtol=1e-5, atol=1e-3)
    # the first sensors of the grid equal the whole grid's run (per-sensor random streams
    # depend on the index only)
    assert np.array_equal(year["total"], py["illuminance"][:4])


def evalglare_line(text):
    for line in text.decode().splitlines():
        if line.startswith("dgp,av_lum"):
            names, values = line.split(": ")
            return dict(zip(names.split(","), map(float, values.split())))
    raise AssertionError(f"no -d line in {text!r}")


@pytest.fixture(scope="module")
def fisheye(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("glare")
    view = ["-vth", "-vp", "1.8", "5", "1.2", "-vd", "0", "-1", "0", "-vu", "0", "0", "1", "-vh", "180", "-vv", "180"]
    pic = cli("rpict", *view, "-x", "96", "-y", "96", "-ab", "0", *SCENE)
    path = out / "fisheye.hdr"
    path.write_bytes(pic)
    return path


def test_glare_equals_evalglare(cli, fisheye):
    want = evalglare_line(cli("evalglare", "-d", fisheye))
    got = daylit.evaluate_glare(fisheye)
    for k, v in want.items():
        assert got[k] == pytest.approx(v, rel=1e-5, abs=1e-6), k
    assert got["E_v"] > 0 and 0 <= got["dgp"] <= 1
    # evalglare prints no DGPs: Wienold's simplified DGP from Ev (6.22e-5 Ev + 0.184, at most 1)
    assert got["dgps"] == pytest.approx(min(6.22e-5 * want["E_v"] + 0.184, 1.0), rel=1e-5)
    want_b = evalglare_line(cli("evalglare", "-d", "-b", "3000", fisheye))
    got_b = daylit.evaluate_glare(fisheye, b=3000)
    assert got_b["dgp"] == pytest.approx(want_b["dgp"], rel=1e-5, abs=1e-6)
    pixels, info = daylit.read_picture(fisheye)
    from_array = daylit.evaluate_glare(pixels, view=info["view"])
    assert from_array == got


def test_picture_round_trip(fisheye, tmp_path):
    pixels, info = daylit.read_picture(fisheye)
    assert pixels.shape == (96, 96, 3) and pixels.dtype == np.float32
    assert "-vth" in info["view"]
    copy = tmp_path / "copy.hdr"
    daylit.write_picture(copy, pixels, view=info["view"])
    again, info2 = daylit.read_picture(copy)
    assert np.array_equal(again, pixels)  # RGBE values read back exactly
    assert info2["view"].split() == info["view"].split()


# Bad inputs: located exceptions.


def test_scene_error_is_located(tmp_path):
    bad = tmp_path / "bad.rad"
    bad.write_text("void plastic grey\n0\n0\n5 0.5 0.5 0.5 0 0\n\ngrey sphere ball\n0\n0\n3 1 2 3\n")
    with pytest.raises(daylit.SceneError) as e:
        daylit.Scene(bad)
    assert e.value.file == str(bad) and e.value.line == 6
    assert str(e.value).startswith(f"{bad}:6:")
    assert isinstance(e.value, daylit.DaylitError)
    with pytest.raises(daylit.SceneError, match="cannot read"):
        daylit.Scene(tmp_path / "missing.rad")


def test_weather_error_is_located(tmp_path):
    lines = WEATHER.read_text().splitlines()
    lines[10] = lines[10].split(",")[0] + ",oops"
    with pytest.raises(daylit.WeatherError) as e:
        daylit.Weather.from_text("\n".join(lines) + "\n", "broken.csv")
    assert e.value.file == "broken.csv" and e.value.line == 11


def test_sensor_error_is_located(tmp_path):
    f = tmp_path / "s.pts"
    f.write_text("0 0 1 0 0 1\n1 2 3 x 0 1\n")
    with pytest.raises(daylit.SensorError) as e:
        daylit.read_sensors(f)
    assert e.value.line == 2 and e.value.file == str(f)


def test_option_errors():
    scene = daylit.Scene(SCENE)
    with pytest.raises(daylit.OptionsError, match="zz"):
        scene.trace(RAYS, zz=1)
    with pytest.raises(daylit.OptionsError, match="-ab expects a number"):
        scene.trace(RAYS, ab="many")
    with pytest.raises(daylit.OptionsError, match=r"shape \(N, 6\)"):
        scene.trace(np.zeros((3, 5)))
    with pytest.raises(daylit.OptionsError, match="Reinhart"):
        daylit.sky_matrix(daylit.Weather(WEATHER), m=0)
    with pytest.raises(daylit.GlareError, match="view"):
        daylit.evaluate_glare(np.ones((8, 8, 3), dtype=np.float32))
    with pytest.raises(daylit.PictureError):
        daylit.read_picture(OFFICE / "office.rad")
    e = daylit.OptionsError("x")
    assert e.file is None and e.line is None if hasattr(e, "file") else True


def test_untraceable_modifier_is_located(tmp_path):
    f = tmp_path / "m.rad"
    f.write_text("void plastic grey\n0\n0\n5 .5 .5 .5 0 0\n\nvoid nosuchtype thing\n0\n0\n0\n")
    with pytest.raises(daylit.SceneError) as e:
        daylit.Scene(f)
    assert e.value.file == str(f) and e.value.line is not None


def test_example_map(tmp_path):
    import runpy
    import sys

    from conftest import ROOT

    png = tmp_path / "map.png"
    argv = sys.argv
    sys.argv = ["annual_map.py", str(png), "--quick"]
    try:
        runpy.run_path(str(ROOT / "examples" / "python" / "annual_map.py"), run_name="__main__")
    finally:
        sys.argv = argv
    assert png.stat().st_size > 10000
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_binary_scene_file_traces_the_same(cli, tmp_path):
    """A scene compiled by `daylit oconv` loads and traces as its text files do."""
    oct_path = tmp_path / "office.oct"
    cli("oconv", "-o", oct_path, *SCENE)
    opts = dict(ab=1, ad=64, aa=0)
    text = daylit.Scene(SCENE).trace(RAYS, **opts)
    assert np.array_equal(daylit.Scene(oct_path).trace(RAYS, **opts), text)


def test_trace_releases_the_gil():
    """Another Python thread keeps running while a long trace works."""
    import threading
    import time

    scene = daylit.Scene(SCENE, ab=2, ad=256, aa=0)
    rays = np.tile(RAYS[:4], (1500, 1))
    done = threading.Event()
    result = {}

    def work():
        result["values"] = scene.trace(rays)
        done.set()

    t0 = time.perf_counter()
    worker = threading.Thread(target=work)
    worker.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    elapsed = time.perf_counter() - t0
    assert result["values"].shape == (6000, 3)
    # with the GIL held, this thread could not have run at all during the trace
    assert elapsed < 0.05 or ticks >= 5, (elapsed, ticks)


def test_annual_takes_sensor_arrays_files_and_schedules(annual_run, tmp_path):
    """The same sensors given as an array or a sensor file, and the default schedule given
    as a DAYSIM CSV, give the same result as the floor grid with the default schedule."""
    _, scene, weather, py = annual_run
    args = dict(ab=2, ad=64, seed=5)
    by_array = daylit.annual(scene, weather, sensors=py["sensors"], **args)
    pts = tmp_path / "grid.pts"
    pts.write_text("".join(" ".join(repr(float(x)) for x in r) + "\n" for r in py["sensors"]))
    assert np.array_equal(daylit.read_sensors(pts), py["sensors"])
    occupied = (weather.hour > 8) & (weather.hour < 18)
    csv = tmp_path / "schedule.csv"
    csv.write_text(
        "".join(
            f"{m},{d},{h},{int(o)}\n"
            for m, d, h, o in zip(weather.month, weather.day, weather.hour, occupied)
        )
    )
    by_file = daylit.annual(scene, weather, sensors=pts, schedule=str(csv), **args)
    for r in (by_array, by_file):
        assert np.array_equal(r["illuminance"], py["illuminance"])
        assert r["sDA"] == py["sDA"] and r["ASE"] == py["ASE"]
        assert r["per_sensor"] == py["per_sensor"]
    with pytest.raises(daylit.OptionsError, match="one of them"):
        daylit.annual(scene, weather, **args)
    with pytest.raises(daylit.OptionsError, match="method"):
        daylit.annual(scene, weather, floor="floor", method="4phase")
