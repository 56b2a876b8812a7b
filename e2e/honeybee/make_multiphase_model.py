"""The multi-phase model: a 6 x 4 x 3 m room, one south window in the dynamic aperture group
SouthWindow with two states, each a Klems BSDF (0: clear glass; 1: venetian blinds; honeybee's
three-phase combinations need a transmission matrix for every state), and a 1.5 m sensor
grid at 0.8 m (8 sensors) whose light path is that group. Writes OUT_DIR/model.hbjson.
Usage: make_multiphase_model.py OUT_DIR CLEAR_XML BLINDS_XML"""
import os
import sys

from honeybee.model import Model
from honeybee.room import Room
from honeybee_radiance.dynamic import RadianceSubFaceState
from honeybee_radiance.modifier.material import BSDF

out, clear_xml, blinds_xml = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
room = Room.from_box('Room1', 6, 4, 3)
for face in room.faces:
    if abs(face.normal.y + 1) < 1e-6:  # south
        face.apertures_by_ratio(0.4)
ap = [a for f in room.faces for a in f.apertures][0]
ap.properties.radiance.dynamic_group_identifier = 'SouthWindow'
ap.properties.radiance.states = [
    RadianceSubFaceState(BSDF(clear_xml, identifier='Clear')),
    RadianceSubFaceState(BSDF(blinds_xml, identifier='Blinds')),
]
grid = room.properties.radiance.generate_sensor_grid(1.5, offset=0.8)
grid.light_path = [['SouthWindow']]
model = Model('MultiPhase', rooms=[room])
model.properties.radiance.sensor_grids = [grid]
model.to_hbjson('model', out)
print(f'{len(grid.sensors)} sensors, {len(model.apertures)} apertures')
