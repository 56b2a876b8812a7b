"""daylit: a fast daylighting simulation engine that reads RADIANCE scenes, from Python.

The native module ``daylit._daylit`` does the work; this package re-exports its names.
"""

from ._daylit import *  # noqa: F401,F403
from ._daylit import __version__, version  # noqa: F401
