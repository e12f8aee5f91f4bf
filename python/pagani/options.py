"""pagani_options from integrate()'s keyword arguments."""

from __future__ import annotations

import ctypes
import os
from typing import Any, Dict, Optional, Sequence

from . import _clib

# The pagani_options fields that **options may set, with their types.
FIELDS = {
    "max_iterations": int,
    "initial_splits": int,
    "vegas_calls": float,
    "vegas_adjust_iterations": int,
    "vegas_bins": int,
    "vegas_alpha": float,
    "vegas_beta": float,
    "chi2_max": float,
    "qmc_shifts": int,
    "qmc_initial_points": int,
    "qmc_transform": int,
    "mc_sigmas": float,
    "domain_scale": float,
    "state_interval": float,
    "batch_warm_stride": int,
}


def _choice(kind: str, value: str, table: Dict[str, int]) -> int:
    if value not in table:
        raise ValueError("%s must be one of %s, not %r"
                         % (kind, ", ".join(map(repr, table)), value))
    return table[value]


def _set_breaks(opt: _clib.Options, n: int, breaks: Sequence[Sequence[float]]) -> None:
    """Cubature's break points, one sequence of coordinates per axis, as
    pagani_options.breaks and break_counts (the ctypes arrays stay alive
    with opt)."""
    axes = [[float(b) for b in axis] for axis in breaks]
    if len(axes) != n:
        raise ValueError("breaks needs one sequence per axis (%d), got %d"
                         % (n, len(axes)))
    flat = [b for axis in axes for b in axis]
    opt.breaks = (ctypes.c_double * max(1, len(flat)))(*flat)
    opt.break_counts = (ctypes.c_int * n)(*(len(axis) for axis in axes))


def _per_axis(n: int, name: str, values: Sequence[float]) -> Any:
    """One float per axis as a ctypes array (kept alive with the options)."""
    floats = [float(v) for v in values]
    if len(floats) != n:
        raise ValueError("%s needs one value per axis (%d), got %d"
                         % (name, n, len(floats)))
    return (ctypes.c_double * n)(*floats)


# The maps of unbounded axes (pagani_map), by name.
MAPS = {"rational": 0, "exponential": 1}

# The keywords that are not plain fields.
SPECIAL = ["breaks", "domain_centers", "domain_map", "domain_scales", "state",
           "strategy", "vegas_grid"]


def make_options(method: str, epsrel: float, epsabs: float,
                 max_evaluations: Optional[int], seed: Optional[int],
                 rule: Optional[int], norm: Optional[str], n: int,
                 options: Dict[str, Any]) -> _clib.Options:
    """The library's defaults for `method` with the given settings for an
    integrand of dimension n. Unknown keywords raise TypeError."""
    opt = _clib.lib.pagani_options_default(_choice("method", method,
                                                   _clib.METHODS))
    opt.epsrel = epsrel
    opt.epsabs = epsabs
    if max_evaluations is not None:
        opt.max_evaluations = max_evaluations
    if seed is not None:
        opt.seed = seed
    if rule is not None:
        opt.rule_degree = rule
    if norm is not None:
        opt.norm = _choice("norm", norm, _clib.NORMS)
    for name, value in options.items():
        if name in FIELDS:
            setattr(opt, name, FIELDS[name](value))
        elif name == "breaks":
            _set_breaks(opt, n, value)
        elif name in ("domain_centers", "domain_scales"):
            setattr(opt, name, _per_axis(n, name, value))
        elif name == "domain_map":
            opt.domain_map = _choice("domain_map", value, MAPS)
        elif name == "strategy":
            opt.strategy = _choice("strategy", value, _clib.STRATEGIES)
        elif name == "vegas_grid":
            if value is not None:
                opt.vegas_grid_out = value.handle
                opt.vegas_grid_in = value.handle if value.filled else None
        elif name == "state":
            # the bytes stay alive with opt (ctypes keeps them)
            opt.state_path = os.fsencode(value) if value is not None else None
        elif name in _clib.FLAGS:
            if value:
                opt.flags |= _clib.FLAGS[name]
            else:
                opt.flags &= ~_clib.FLAGS[name]
        else:
            raise TypeError("unknown option %r (options: %s)" % (
                name, ", ".join(sorted(FIELDS) + SPECIAL + sorted(_clib.FLAGS))))
    return opt


def note_vegas_grid(options: Dict[str, Any], method: int) -> None:
    """After a successful call with options: a vegas_grid is filled once a
    Vegas run (`method`, the result's) has left its grid there."""
    grid = options.get("vegas_grid")
    if grid is not None and method == _clib.METHODS["vegas"]:
        grid.filled = True
