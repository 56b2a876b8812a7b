"""The end-to-end model: a 6 x 4 x 3 m room with windows on the south and east facades,
a 0.5 m sensor grid at 0.8 m (96 sensors) and one view, plus the Greensboro TMY3 year of
examples/weather as a WEA. Usage: make_model.py OUT_DIR TMY3_CSV"""
import csv
import os
import sys

from honeybee.model import Model
from honeybee.room import Room
from honeybee_radiance.view import View
from ladybug.location import Location
from ladybug.wea import Wea

out, tmy3 = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
room = Room.from_box('Room1', 6, 4, 3)
for face in room.faces:
    n = face.normal
    if abs(n.y + 1) < 1e-6:  # south
        face.apertures_by_ratio(0.4)
    elif abs(n.x - 1) < 1e-6:  # east
        face.apertures_by_ratio(0.3)
grid = room.properties.radiance.generate_sensor_grid(0.5, offset=0.8)
view = View('View1', (3, 3.5, 1.5), (0, -1, 0), (0, 0, 1), 'v', 60, 60)
model = Model('E2EModel', rooms=[room])
model.properties.radiance.sensor_grids = [grid]
model.properties.radiance.views = [view]
model.to_hbjson('model', out)

rows = list(csv.reader(open(tmy3)))
h = rows[0]
loc = Location(h[1], h[2], 'USA', float(h[4]), float(h[5]), float(h[3]), float(h[6]),
               station_id=h[0])
data = rows[2:2 + 8760]
wea = Wea.from_annual_values(loc, [float(r[7]) for r in data], [float(r[10]) for r in data])
wea.write(os.path.join(out, 'weather.wea'))
print(f'{len(grid.sensors)} sensors, {len(model.apertures)} apertures')
