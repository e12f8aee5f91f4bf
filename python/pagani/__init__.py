"""pagani: multi-dimensional numerical integration on GPUs and CPUs.

A thin layer over libpagani's C API (loaded with ctypes):

>>> import pagani
>>> r = pagani.integrate("exp(-x[0]*x[0] - x[1]*x[1])", [0, 0], [1, 1])
>>> print(r.value, r.error, r.converged)

See help(pagani.integrate) and help(pagani.integrate_batch).
"""

from . import _clib
from .context import Context
from .errors import (AbortedError, BackendUnavailableError, BoundsError,
                     CompileError, NonFiniteError, OptionError, PaganiError,
                     ParamsError, StateError)
from .integrate import integrate, integrate_batch
from .result import BatchResult, Result
from .vegas_grid import VegasGrid

__version__ = _clib.text(_clib.lib.pagani_version())

__all__ = ["integrate", "integrate_batch", "Result", "BatchResult",
           "Context", "PaganiError", "CompileError", "OptionError",
           "BoundsError", "ParamsError", "NonFiniteError",
           "BackendUnavailableError", "AbortedError", "StateError",
           "VegasGrid"]
