"""A Vegas grid for warm starts (pagani_vegas_grid, README "Checkpoints and
warm starts")."""

from __future__ import annotations

import ctypes

from . import _clib
from .errors import PaganiError


class VegasGrid:
    """The importance grid a Vegas integration learned, to start the next
    one of the same dimension from (a warm start, as Cuba's gridno).

    Pass it as ``integrate(..., method="vegas", vegas_grid=grid)``: a run
    starts from the grid once a run has filled it (``filled``), and every
    Vegas run that succeeds leaves its final grid in it (a batch, that of
    its integral 0). Set ``vegas_adjust_iterations=1`` on the warm runs to
    shorten their adjustment.

    >>> grid = pagani.VegasGrid()
    >>> for c in centres:
    ...     r = pagani.integrate(src, lo, hi, params=[c], method="vegas",
    ...                          vegas_grid=grid,
    ...                          vegas_adjust_iterations=1 if grid.filled else 5)
    """

    def __init__(self) -> None:
        handle = ctypes.c_void_p()
        rc = _clib.lib.pagani_vegas_grid_create(ctypes.byref(handle))
        if rc != _clib.OK:
            raise PaganiError(rc, _clib.text(_clib.lib.pagani_strerror(rc)))
        self.handle = handle
        self.filled = False

    def close(self) -> None:
        """Frees the grid (also when it is garbage collected)."""
        if self.handle:
            _clib.lib.pagani_vegas_grid_destroy(self.handle)
            self.handle = None

    def __del__(self) -> None:
        self.close()
