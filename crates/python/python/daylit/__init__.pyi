"""Type stubs of daylit's Python package (the native module daylit._daylit)."""

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

_Path = Union[str, "os.PathLike[str]"]
_Array = npt.ArrayLike

__version__: str

class DaylitError(Exception):
    """Base class of daylit's errors; ``file`` and ``line`` give the location when known."""

    file: Optional[str]
    line: Optional[int]

class SceneError(DaylitError):
    """A scene file that cannot be read, parsed or traced."""

class WeatherError(DaylitError):
    """A weather file that cannot be read, or a sky matrix that cannot be made."""

class SensorError(DaylitError):
    """Bad sensor points or a sensor grid that cannot be laid out."""

class OptionsError(DaylitError):
    """An option that is unknown, out of range or of the wrong type."""

class PictureError(DaylitError):
    """A RADIANCE picture that cannot be read or written."""

class GlareError(DaylitError):
    """A picture or view that glare cannot be evaluated on."""

class MetricsError(DaylitError):
    """Annual illuminance, schedules or metric options that do not fit together."""

def version() -> str:
    """The version of the daylit library this module was built from."""

class Scene:
    """RADIANCE scene files loaded and checked once; rtrace's options by RADIANCE's names."""

    def __init__(
        self,
        files: Union[_Path, Sequence[_Path]],
        *,
        allow_commands: bool = False,
        **options: Any,
    ) -> None: ...
    @property
    def files(self) -> List[str]:
        """The scene files, in the order they were read."""
    def __len__(self) -> int: ...
    def trace(
        self, rays: _Array, *, irradiance: bool = False, **options: Any
    ) -> npt.NDArray[np.float64]:
        """Values of rays (N, 6) as rtrace gives them, (N, 3); ``irradiance`` is rtrace -I."""
    def polygon(self, name: str) -> npt.NDArray[np.float64]:
        """The vertices (K, 3) of the polygon named ``name``."""
    def has_bsdf_windows(self) -> bool:
        """Whether a surface has a BSDF or aBSDF material."""
    def sensor_grid(
        self, floor: str, *, height: float = 0.8, spacing: float = 0.5
    ) -> npt.NDArray[np.float64]:
        """A work-plane grid (N, 6) over the polygon named ``floor``."""
    def daylight_coefficients(
        self,
        sensors: _Array,
        *,
        m: int = 1,
        ab: int = 10,
        ad: int = 4096,
        lw: float = 1e-5,
        seed: int = 1,
        direct: bool = False,
    ) -> Union[
        npt.NDArray[np.float32], Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]
    ]:
        """Daylight coefficients (N, patches, 3) of sensors (N, 6), patches ground first."""
    def annual_illuminance(
        self,
        sensors: _Array,
        weather: "Weather",
        *,
        m: int = 1,
        ab: int = 10,
        ad: int = 4096,
        lw: float = 1e-5,
        seed: int = 1,
    ) -> Dict[str, npt.NDArray[np.float32]]:
        """``total``, ``two_phase`` and ``direct_sun`` illuminance (N, hours), lux."""

class Weather:
    """A weather file (EPW, WEA, TMY3); longitudes in degrees west, as RADIANCE has them."""

    def __init__(self, path: _Path) -> None: ...
    @staticmethod
    def from_text(text: str, name: str = "<text>") -> "Weather": ...
    def __len__(self) -> int: ...
    @property
    def format(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def latitude(self) -> float: ...
    @property
    def longitude(self) -> float: ...
    @property
    def meridian(self) -> float: ...
    @property
    def elevation(self) -> float: ...
    @property
    def month(self) -> npt.NDArray[np.uint32]: ...
    @property
    def day(self) -> npt.NDArray[np.uint32]: ...
    @property
    def hour(self) -> npt.NDArray[np.float64]: ...
    @property
    def direct(self) -> npt.NDArray[np.float64]: ...
    @property
    def diffuse(self) -> npt.NDArray[np.float64]: ...
    def to_wea(self) -> str: ...

def sky_matrix(
    weather: Weather,
    *,
    m: int = 1,
    d: bool = False,
    s: bool = False,
    g: Optional[Union[float, Sequence[float]]] = None,
    c: Optional[Sequence[float]] = None,
    r: float = 0.0,
    O: int = 0,
    A: bool = False,
    u: bool = False,
    five: Optional[float] = None,
    i: float = 0.0,
    dew_point: bool = True,
) -> npt.NDArray[np.float32]:
    """gendaymtx: sky patch radiance (patches, hours, 3), ground first."""

def sensor_grid(
    polygon: _Array, *, height: float = 0.8, spacing: float = 0.5
) -> npt.NDArray[np.float64]:
    """A work-plane sensor grid (N, 6) over a floor polygon (K, 3)."""

def read_sensors(path: _Path) -> npt.NDArray[np.float64]:
    """A RADIANCE sensor file as (N, 6)."""

def annual_metrics(
    illuminance: _Array,
    *,
    weather: Optional[Weather] = None,
    schedule: Optional[Union[_Path, _Array]] = None,
    direct_sun: Optional[_Array] = None,
    threshold: float = 300.0,
    udi: Tuple[float, float] = (100.0, 2000.0),
) -> Dict[str, Any]:
    """DA, cDA, UDI, mean illuminance, sDA and ASE as ``daylit annual --json`` has them."""

def annual(
    scene: Scene,
    weather: Weather,
    *,
    sensors: Optional[Union[_Path, _Array]] = None,
    floor: Optional[str] = None,
    height: float = 0.8,
    spacing: float = 0.5,
    schedule: Optional[Union[_Path, _Array]] = None,
    threshold: float = 300.0,
    udi: Tuple[float, float] = (100.0, 2000.0),
    method: str = "auto",
    m: int = 1,
    ab: int = 10,
    ad: int = 4096,
    lw: float = 1e-5,
    seed: int = 1,
) -> Dict[str, Any]:
    """``daylit annual``: its JSON dict plus ``sensors``, ``illuminance``, ``direct_sun``."""

def read_picture(
    path: _Path,
) -> Tuple[npt.NDArray[np.float32], Dict[str, Any]]:
    """A RADIANCE picture as (height, width, 3) float32 and its header information."""

def write_picture(
    path: _Path,
    pixels: _Array,
    *,
    view: Optional[str] = None,
    header: Optional[List[str]] = None,
) -> None:
    """Writes pixels (height, width, 3) as a RADIANCE picture, whole or not at all."""

def evaluate_glare(
    picture: Union[_Path, _Array], *, view: Optional[str] = None, **options: Any
) -> Dict[str, float]:
    """evalglare: Ev, DGP, DGPs, UGR, UGP and the rest of its ``-d`` line."""
