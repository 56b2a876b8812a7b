"""A small annual daylight study with daylit's Python package, drawn as a map.

Run as a script (or cell by cell in a notebook):

    python examples/python/annual_map.py [map.png] [--quick]

It loads the reference office, lays a work-plane grid over its floor, runs the year of the
bundled Greensboro weather file by daylight coefficients, and draws daylight autonomy
(DA300) per sensor with matplotlib, the sDA and ASE in the title. ``--quick`` uses fewer
samples (what the end-to-end test runs).
"""

# %% Inputs
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no window
import matplotlib.pyplot as plt
from matplotlib.collections import PolyCollection
import numpy as np

import daylit

root = Path(__file__).resolve().parents[2]
args = [a for a in sys.argv[1:] if not a.startswith("--")]
out = Path(args[0]) if args else Path("annual_map.png")
quick = "--quick" in sys.argv

scene = daylit.Scene([root / "examples" / "office" / "office.rad"])
weather = daylit.Weather(root / "examples" / "weather" / "723170TYA.CSV")
print(f"{weather.name}: {len(weather)} hours, latitude {weather.latitude:.2f}")

# %% The year: sensors on a grid 0.8 m above the floor, DA, UDI, sDA and ASE
spacing = 0.6 if quick else 0.4
settings = dict(ab=3, ad=512) if quick else dict(ab=6, ad=2048)
result = daylit.annual(scene, weather, floor="floor", spacing=spacing, **settings)
sensors = result["sensors"]
da = np.array(result["per_sensor"]["DA"])
print(f"{len(sensors)} sensors, sDA300/50% = {result['sDA']:.2f}, ASE1000,250 = {result['ASE']:.2f}")

# %% The map: one square per sensor cell, the floor outline, the window side marked
floor = scene.polygon("floor")
fig, ax = plt.subplots(figsize=(4.5, 7))
half = spacing / 2  # the grid's cells are aligned with the floor's longest edge (here y)
squares = [
    [(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)]
    for x, y in sensors[:, :2]
]
cells = PolyCollection(squares, array=100 * da, cmap="viridis", clim=(0, 100))
ax.add_collection(cells)
ax.fill(floor[:, 0], floor[:, 1], fill=False, edgecolor="black", linewidth=1.5)
ax.plot([floor[:, 0].min(), floor[:, 0].max()], [0, 0], color="tab:blue", linewidth=4, label="window")
ax.set_aspect("equal")
ax.set_xlabel("x (m)")
ax.set_ylabel("y (m)")
ax.set_title(f"DA300 (%), sDA {100 * result['sDA']:.0f} %, ASE {100 * result['ASE']:.0f} %")
ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08))
fig.colorbar(cells, ax=ax, label="daylight autonomy, % of occupied hours")
fig.tight_layout()
fig.savefig(out, dpi=120)
print(f"map: {out}")
