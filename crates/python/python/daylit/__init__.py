"""daylit: a fast daylighting simulation engine that reads RADIANCE scenes, from Python.

Scenes, rays, sensor grids, daylight coefficients, weather files and sky matrices, annual
metrics, glare and RADIANCE pictures, exchanged as NumPy arrays. The native module
``daylit._daylit`` does the work (the GIL is released while it does); this package
re-exports its names. Errors are :class:`DaylitError` subclasses whose message starts with
the RADIANCE-style location ``file:line:`` and whose ``file`` and ``line`` attributes give
it when known.

Example::

    import daylit
    scene = daylit.Scene(["room.rad"])
    weather = daylit.Weather("weather.epw")
    result = daylit.annual(scene, weather, floor="floor", ab=4, ad=512)
    print(result["sDA"], result["ASE"])
"""

from ._daylit import (
    DaylitError,
    GlareError,
    MetricsError,
    OptionsError,
    PictureError,
    SceneError,
    SensorError,
    WeatherError,
    Scene,
    Weather,
    __version__,
    annual,
    annual_metrics,
    evaluate_glare,
    read_picture,
    read_sensors,
    sensor_grid,
    sky_matrix,
    version,
    write_picture,
)

__all__ = [
    "DaylitError",
    "GlareError",
    "MetricsError",
    "OptionsError",
    "PictureError",
    "SceneError",
    "SensorError",
    "WeatherError",
    "Scene",
    "Weather",
    "__version__",
    "annual",
    "annual_metrics",
    "evaluate_glare",
    "read_picture",
    "read_sensors",
    "sensor_grid",
    "sky_matrix",
    "version",
    "write_picture",
]
