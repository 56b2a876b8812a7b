# A two-room model with windows, a skylight, shades and a louvre array, exported the way
# Ladybug Tools' honeybee-radiance writes RADIANCE scenes.
from honeybee.model import Model
from honeybee.room import Room
from honeybee_radiance.sensorgrid import SensorGrid
from ladybug_geometry.geometry3d import Point3D, Vector3D
import json
r1 = Room.from_box('Office', 6, 8, 3, origin=Point3D(0, 0, 0))
r2 = Room.from_box('Studio', 5, 8, 4, origin=Point3D(6, 0, 0))
for f in r1.faces:
    if f.normal.y < -0.9:
        f.apertures_by_ratio(0.4, 0.01)
        f.apertures[0].louvers_by_count(4, 0.3, 0.0, 0.0)
for f in r2.faces:
    if f.normal.x > 0.9:
        f.apertures_by_ratio(0.3, 0.01)
        f.apertures[0].extruded_border(0.3)
    if f.normal.z > 0.9:
        f.apertures_by_ratio(0.1, 0.01)
Room.solve_adjacency([r1, r2])
m = Model('Studio_Block', rooms=[r1, r2])
m.to_hbjson('Studio_Block', '.')
