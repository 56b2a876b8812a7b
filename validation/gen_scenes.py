#!/usr/bin/env python3
"""Writes validation/scenes/* (scene files, sensors, views, case.txt skeleton data).
Run once; the scene files are the source of truth, this script only documents how they were made.
Skies were made with RADIANCE gensky 6.0a and pasted as plain primitives (commands kept as comments)."""
import math, os, shutil
HERE = os.path.dirname(os.path.abspath(__file__))
S = os.path.join(HERE, "scenes")
OFFICE = open(os.path.join(HERE, "..", "examples", "office", "office.rad")).read()

CLEAR_SKY = """# Clear sky with sun, Greensboro NC, 21 September 12:00 EST, made by RADIANCE 6.0a:
#   gensky 9 21 12 -a 36.1 -o 79.95 -m 75 +s
# Solar altitude and azimuth: 53.6 -5.5 ; ground ambient level 15.2

void light solar
0
0
3 6.954e+06 6.954e+06 6.954e+06

solar source sun
0
0
4 0.056889 -0.591085 0.804601 0.5

void brightfunc skyfunc
2 skybr skybright.cal
0
7 1 1.229e+01 2.441e+01 7.360e-01 0.056889 -0.591085 0.804601

skyfunc glow sky_glow
0
0
4 1 1 1 0

sky_glow source sky
0
0
4 0 0 1 180

skyfunc glow ground_glow
0
0
4 1 1 1 0

ground_glow source ground
0
0
4 0 0 -1 180
"""

OVERCAST_SKY = """# CIE overcast sky, 21 September 12:00 EST, Greensboro NC, made by RADIANCE 6.0a:
#   gensky 9 21 12 -a 36.1 -o 79.95 -m 75 -c -B 55.866
# -B 55.866 W/m2 horizontal diffuse irradiance = 10000 lux (55.866*179), so sensor lux / 100 = daylight factor in %.
# Solar altitude and azimuth: 53.6 -5.5 ; ground ambient level 17.8

void brightfunc skyfunc
2 skybr skybright.cal
0
3 2 2.286e+01 3.557e+00

skyfunc glow sky_glow
0
0
4 1 1 1 0

sky_glow source sky
0
0
4 0 0 1 180

skyfunc glow ground_glow
0
0
4 1 1 1 0

ground_glow source ground
0
0
4 0 0 -1 180
"""

def w(case, name, text):
    d = os.path.join(S, case); os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w") as f: f.write(text)

def pts(rows):
    return "".join(" ".join(f"{v:g}" for v in r) + "\n" for r in rows)

def office_grid():
    return [(x, y, 0.8, 0, 0, 1) for y in (0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5) for x in (0.45, 1.35, 2.25, 3.15)]

OFFICE_VIEW = "rview -vta -vp 0.9 4.8 1.2 -vd 0 -1 0 -vu 0 0 1 -vh 180 -vv 180 -vo 0 -va 0 -vs 0 -vl 0\n"

def room(case, sky, extra="", view=OFFICE_VIEW, scene=None):
    w(case, "sky.rad", sky)
    w(case, "scene.rad", (scene if scene is not None else OFFICE) + extra)
    w(case, "sensors.pts", pts(office_grid()))
    w(case, "view.vf", view)
    w(case, "scene_files.txt", "sky.rad\nscene.rad\n")

# ---------------- analytic cases ----------------
R, r, rho = 1.0, 0.02, 0.5
Ls = 100.0 / (math.pi * r * r / (R * R))          # E0 = 100 W/m2 on the wall
w("01_furnace_light", "scene.rad", f"""# Furnace 1: closed diffuse spherical enclosure (bubble, normals inward) of radius {R} m,
# Lambertian reflectance {rho} (plastic, no specular), lit by a small spherical `light` source of
# radius {r} m at the centre (radiance {Ls:.4f} W/sr/m2, so direct irradiance on the wall E0 = pi*Ls*r^2/R^2 = 100 W/m2).

void plastic wall_mat
0
0
5 {rho} {rho} {rho} 0 0

wall_mat bubble enclosure
0
0
4 0 0 0 {R}

void light lamp_mat
0
0
3 {Ls:.4f} {Ls:.4f} {Ls:.4f}

lamp_mat sphere lamp
0
0
4 0 0 0 {r}
""")
d = 0.999
wall_pts = [(d*a, d*b, d*c, -a, -b, -c) for a, b, c in [(1,0,0),(-1,0,0),(0,1,0),(0,-1,0),(0,0,1),(0,0,-1)]]
s3 = 1/math.sqrt(3)
wall_pts += [(d*s3, d*s3, d*s3, -s3, -s3, -s3), (-d*s3, d*s3, -d*s3, s3, -s3, s3)]
away_pts = [(0,0,0.5,0,0,1), (0,0,-0.5,0,0,-1), (0.5,0,0,1,0,0), (0,-0.5,0,0,-1,0)]
toward_pts = [(0.5,0,0,-1,0,0), (0,0.5,0,0,-1,0), (0,0,0.5,0,0,-1), (0,0,-0.5,0,0,1)]
w("01_furnace_light", "sensors.pts", pts(wall_pts + away_pts + toward_pts))
w("01_furnace_light", "scene_files.txt", "scene.rad\n")

R2, r2, rho2 = 1.0, 0.5, 0.8
Lg = 100.0 / (math.pi * r2 * r2 / (R2 * R2))
w("02_furnace_glow", "scene.rad", f"""# Furnace 2: closed diffuse spherical enclosure (bubble) of radius {R2} m, Lambertian reflectance {rho2},
# around a concentric `glow` sphere of radius {r2} m and radiance {Lg:.6f} W/sr/m2 (glow radius 0: not a light
# source, seen only by the ambient calculation). Direct irradiance from the glow on the wall E0 = pi*Lg*r^2/R^2 = 100 W/m2.

void plastic wall_mat
0
0
5 {rho2} {rho2} {rho2} 0 0

wall_mat bubble enclosure
0
0
4 0 0 0 {R2}

void glow emitter_mat
0
0
4 {Lg:.6f} {Lg:.6f} {Lg:.6f} 0

emitter_mat sphere emitter
0
0
4 0 0 0 {r2}
""")
away2 = [(0,0,0.75,0,0,1), (0,0,-0.75,0,0,-1), (0.75,0,0,1,0,0), (0,-0.75,0,0,-1,0)]
w("02_furnace_glow", "sensors.pts", pts(wall_pts + away2))
w("02_furnace_glow", "scene_files.txt", "scene.rad\n")

def tilt_pts(z):
    out = []
    for beta in (0, 30, 45, 60, 90, 120, 180):
        b = math.radians(beta)
        dx, dz = math.sin(b), math.cos(b)
        out.append((0, 0, z, round(dx, 9), 0, round(dz, 9)))
    out.append((5, -3, z, 0, round(math.sin(math.radians(60)), 9), round(math.cos(math.radians(60)), 9)))
    return out

UNI = """# Uniform sky: a glow of radiance L = (100, 90, 80) W/sr/m2 over the upper hemisphere (distant source, 180 deg
# around +z). Glow radius 0: seen by the ambient calculation only.
void glow sky_mat
0
0
4 100 90 80 0

sky_mat source sky
0
0
4 0 0 1 180
"""
w("03_uniform_sky", "scene.rad", UNI + """
# A black (reflectance 0) ground disc so the octree holds a surface; it reflects nothing.
void plastic black
0
0
5 0 0 0 0 0

black ring ground
0
0
8 0 0 0  0 0 1  0 10000
""")
w("03_uniform_sky", "sensors.pts", pts(tilt_pts(1.0)))
w("03_uniform_sky", "scene_files.txt", "scene.rad\n")

w("04_uniform_sky_ground", "scene.rad", UNI + """
# A grey Lambertian ground disc of reflectance 0.2 and radius 10 km.
void plastic grey_ground
0
0
5 0.2 0.2 0.2 0 0

grey_ground ring ground
0
0
8 0 0 0  0 0 1  0 10000
""")
w("04_uniform_sky_ground", "sensors.pts", pts(tilt_pts(1.0)))
w("04_uniform_sky_ground", "scene_files.txt", "scene.rad\n")

# sun: distant light source, altitude 40 deg, azimuth due south (-y)
alt = math.radians(40.0)
sdir = (0.0, -math.cos(alt), math.sin(alt))
w("05_sun_ground", "scene.rad", f"""# A sun alone: distant `light` source of 0.533 deg diameter, radiance 1e6 W/sr/m2 (R=G=B),
# altitude 40 deg, towards -y (south), over a grey Lambertian ground of reflectance 0.2 (radius 10 km). No sky.
void light sun_mat
0
0
3 1e6 1e6 1e6

sun_mat source sun
0
0
4 {sdir[0]:.9f} {sdir[1]:.9f} {sdir[2]:.9f} 0.533

void plastic grey_ground
0
0
5 0.2 0.2 0.2 0 0

grey_ground ring ground
0
0
8 0 0 0  0 0 1  0 10000
""")
sun_pts = []
for beta in (0, 30, 60, 90, 120, 180):          # tilt towards the sun (south), then away
    b = math.radians(beta)
    sun_pts.append((0, 0, 1, 0, round(-math.sin(b), 9), round(math.cos(b), 9)))
sun_pts.append((0, 0, 1, 0, round(-math.cos(alt), 9), round(math.sin(alt), 9)))   # normal to the sun
sun_pts.append((0, 0, 1, 1, 0, 0))                                                   # vertical, facing east
w("05_sun_ground", "sensors.pts", pts(sun_pts))
w("05_sun_ground", "scene_files.txt", "scene.rad\n")

# ---------------- rooms ----------------
room("06_office_overcast", OVERCAST_SKY)
room("07_office_clear_sun", CLEAR_SKY)
room("08_lightshelf_mirror", CLEAR_SKY, """
# ---- light shelf (case 08): a mirror-topped shelf at 2.0 m, 0.6 m outside and 0.6 m inside the glazing.
# The shelf top is `mirror` (reflectance 0.9, a virtual source for the sun in RADIANCE); its underside is white plastic.
void mirror shelf_mirror
0
0
3 0.9 0.9 0.9

void plastic shelf_under
0
0
5 0.8 0.8 0.8 0 0

shelf_mirror polygon shelf_top
0
0
12  0.2 -0.6 2.0   3.4 -0.6 2.0   3.4 0.6 2.0   0.2 0.6 2.0

shelf_under polygon shelf_bottom
0
0
12  0.2 -0.6 1.99   0.2 0.6 1.99   3.4 0.6 1.99   3.4 -0.6 1.99
""")
room("09_translucent_partition", CLEAR_SKY, """
# ---- translucent partition (case 09): a full-height `trans` partition across the room at y = 4.0 m.
# trans: colour 0.8, specularity 0, roughness 0, transmissivity 0.6 (of the non-specular part), transmitted specular 0.25.
void trans partition_mat
0
0
7 0.8 0.8 0.8 0 0 0.6 0.25

partition_mat polygon partition
0
0
12  0 4.0 0   3.6 4.0 0   3.6 4.0 2.85   0 4.0 2.85
""")
room("10_rough_metal", CLEAR_SKY, """
# ---- rough metal (case 10): a brushed-aluminium floor panel in the sun patch and a metal wall panel.
# metal: colour 0.8 0.8 0.8, specularity 0.9, roughness 0.1 (floor) / 0.2 (east wall panel).
void metal rough_alu
0
0
5 0.8 0.8 0.8 0.9 0.1

void metal rougher_alu
0
0
5 0.75 0.75 0.75 0.9 0.2

rough_alu polygon metal_floor_panel
0
0
12  0.3 0.3 0.002   3.3 0.3 0.002   3.3 2.8 0.002   0.3 2.8 0.002

rougher_alu polygon metal_wall_panel
0
0
12  3.598 1.0 0.3   3.598 1.0 2.5   3.598 5.0 2.5   3.598 5.0 0.3
""")
room("11_dielectric", CLEAR_SKY, """
# ---- dielectric objects (case 11): a glass sphere (n = 1.52) on the first west desk in the sun and a dielectric
# block (acrylic-like, n = 1.49, slight tint) on the first east desk.
void dielectric crystal
0
0
5 1 1 1 1.52 0

void dielectric acrylic
0
0
5 0.98 0.99 0.99 1.49 0

crystal sphere glass_ball
0
0
4 0.9 1.6 0.9 0.15

!genbox acrylic block 0.4 0.3 0.25 | xform -t 2.5 1.4 0.75
""")

# electric-light room: 6 x 4 x 2.8 m, no window
ER = """# Electric-light room (case 12): a closed windowless room 6 m (x) by 4 m (y) by 2.8 m, lit by four recessed
# `light` panels (0.6 x 0.6 m, facing down) and one `spotlight` aimed at a desk.
void plastic floor_mat
0
0
5 0.2 0.2 0.2 0 0

void plastic wall_mat
0
0
5 0.5 0.5 0.5 0 0

void plastic ceiling_mat
0
0
5 0.8 0.8 0.8 0 0

void plastic desk_mat
0
0
5 0.5 0.45 0.4 0 0

floor_mat polygon floor
0
0
12  0 0 0   6 0 0   6 4 0   0 4 0

ceiling_mat polygon ceiling
0
0
12  0 0 2.8   0 4 2.8   6 4 2.8   6 0 2.8

wall_mat polygon wall_south
0
0
12  0 0 0   0 0 2.8   6 0 2.8   6 0 0

wall_mat polygon wall_north
0
0
12  0 4 0   6 4 0   6 4 2.8   0 4 2.8

wall_mat polygon wall_west
0
0
12  0 0 0   0 4 0   0 4 2.8   0 0 2.8

wall_mat polygon wall_east
0
0
12  6 0 0   6 0 2.8   6 4 2.8   6 4 0

!genbox desk_mat desk 1.4 0.7 0.03 | xform -t 3.8 1.6 0.72

# Panels: light radiance 120 W/sr/m2 (warm white), normals facing down (vertices clockwise seen from below).
void light panel_mat
0
0
3 120 110 95
"""
for i, (cx, cy) in enumerate([(1.5, 1.0), (1.5, 3.0), (4.5, 1.0), (4.5, 3.0)]):
    x0, x1, y0, y1 = cx-0.3, cx+0.3, cy-0.3, cy+0.3
    ER += f"""
panel_mat polygon panel{i+1}
0
0
12  {x0:g} {y0:g} 2.799   {x0:g} {y1:g} 2.799   {x1:g} {y1:g} 2.799   {x1:g} {y0:g} 2.799
"""
ER += """
# Spotlight: a 5 cm sphere below the ceiling over the desk, 40 deg cone full angle, aimed straight down.
void spotlight spot_mat
0
0
7 3000 3000 2800 40 0 0 -1

spot_mat sphere spot
0
0
4 4.5 1.95 2.5 0.05
"""
w("12_electric_room", "scene.rad", ER)
w("12_electric_room", "sensors.pts", pts([(x, y, 0.8, 0, 0, 1) for y in (0.5, 1.5, 2.5, 3.5) for x in (0.5, 1.5, 2.5, 3.5, 4.5, 5.5)]))
w("12_electric_room", "view.vf", "rview -vta -vp 1.0 2.0 1.2 -vd 1 0 0 -vu 0 0 1 -vh 180 -vv 180 -vo 0 -va 0 -vs 0 -vl 0\n")
w("12_electric_room", "scene_files.txt", "scene.rad\n")
print("ok")
