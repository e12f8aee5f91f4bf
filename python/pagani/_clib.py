"""The ctypes declarations of include/pagani.h that the package uses, and
the loaded library. Structures mirror the C ones field for field
(tests/test_layout.py compares them with the header)."""

from __future__ import annotations

import ctypes
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_double,
                    c_int, c_longlong, c_size_t, c_uint, c_ulonglong,
                    c_void_p)
from pathlib import Path

from ._library_path import LIBRARY

# enum pagani_error
OK = 0
ERR_NULL_POINTER = 1
ERR_DIMENSION = 2
ERR_BOUNDS = 3
ERR_TOLERANCE = 4
ERR_OPTION = 5
ERR_NO_FORM = 6
ERR_COMPILE = 7
ERR_NONFINITE = 8
ERR_NO_MEMORY = 9
ERR_BACKEND_UNAVAILABLE = 10
ERR_CUDA = 11
ERR_CONTEXT_MISMATCH = 12
ERR_SYSTEM = 13
ERR_PARAMS = 14
ERR_COMPONENTS = 15
ERR_STOPPED = 16
ERR_ABORTED = 17
ERR_STATE = 18

# enum pagani_status
CONVERGED = 0

BACKENDS = {"auto": 0, "cpu": 1, "cuda": 2}
METHODS = {"auto": 0, "cubature": 1, "vegas": 2, "qmc": 3}
NORMS = {"individual": 0, "paired": 1, "l2": 2, "l1": 3, "max": 4}
# pagani_strategy, by name (cubature's refinement)
STRATEGIES = {"auto": 0, "breadth": 1, "worst": 2}
FLAGS = {"no_relerr_filter": 1, "vegas_plus": 2, "vegas_1d": 4,
         "no_probes": 8}

# double f(const double *x, int n, const void *params)
FUNCTION = CFUNCTYPE(c_double, POINTER(c_double), c_int, c_void_p)
# void f(const double *x, int n, const void *params, double *f)
VECTOR_FUNCTION = CFUNCTYPE(None, POINTER(c_double), c_int, c_void_p,
                            POINTER(c_double))
# int f(const double *x, int n, long long npoints, const void *params,
#       double *f, void *data)
BLOCK_FUNCTION = CFUNCTYPE(c_int, POINTER(c_double), c_int, c_longlong,
                           c_void_p, POINTER(c_double), c_void_p)
# int progress(int iteration, long long size, double estimate,
#              double error, void *data)
PROGRESS = CFUNCTYPE(c_int, c_int, c_longlong, c_double, c_double, c_void_p)


class Options(Structure):
    """pagani_options."""

    _fields_ = [
        ("method", c_int),
        ("epsrel", c_double),
        ("epsabs", c_double),
        ("max_evaluations", c_longlong),
        ("max_iterations", c_int),
        ("flags", c_uint),
        ("seed", c_ulonglong),
        ("rule_degree", c_int),
        ("initial_splits", c_int),
        ("vegas_calls", c_double),
        ("vegas_adjust_iterations", c_int),
        ("vegas_bins", c_int),
        ("vegas_alpha", c_double),
        ("vegas_beta", c_double),
        ("chi2_max", c_double),
        ("qmc_shifts", c_int),
        ("qmc_initial_points", c_longlong),
        ("qmc_transform", c_int),
        ("progress", PROGRESS),
        ("progress_data", c_void_p),
        ("norm", c_int),
        ("mc_sigmas", c_double),
        ("domain_scale", c_double),
        ("breaks", POINTER(c_double)),
        ("break_counts", POINTER(ctypes.c_int)),
        ("domain_map", c_int),
        ("domain_centers", POINTER(c_double)),
        ("domain_scales", POINTER(c_double)),
        ("state_path", ctypes.c_char_p),
        ("state_interval", c_double),
        ("strategy", c_int),
        ("vegas_grid_in", c_void_p),
        ("vegas_grid_out", c_void_p),
        ("batch_warm_stride", ctypes.c_int),
    ]


class ResultStruct(Structure):
    """pagani_result."""

    _fields_ = [
        ("value", c_double),
        ("error", c_double),
        ("status", c_int),
        ("evaluations", c_longlong),
        ("regions", c_longlong),
        ("iterations", c_int),
        ("chi2_dof", c_double),
        ("method", c_int),
        ("backend", c_int),
        ("rule_degree", c_int),
        ("seconds", c_double),
        ("by_epsabs", c_int),
        ("auto_reason", c_int),
    ]


def _load() -> ctypes.CDLL:
    path = Path(LIBRARY)
    if not path.is_absolute():
        path = Path(__file__).resolve().parent / path
    return ctypes.CDLL(str(path))


lib = _load()

_DOUBLES = POINTER(c_double)
_HANDLE = POINTER(c_void_p)
_PROTOTYPES = {
    "pagani_context_create": (c_int, [_HANDLE, c_int]),
    "pagani_context_destroy": (None, [c_void_p]),
    "pagani_context_backend": (c_int, [c_void_p]),
    "pagani_context_set_threads": (c_int, [c_void_p, c_int]),
    "pagani_context_set_memory": (c_int, [c_void_p, c_size_t]),
    "pagani_context_message": (c_char_p, [c_void_p]),
    "pagani_context_request_stop": (None, [c_void_p]),
    "pagani_integrand_from_function":
        (c_int, [c_void_p, _HANDLE, c_int, FUNCTION, c_void_p, c_size_t]),
    "pagani_integrand_from_source":
        (c_int, [c_void_p, _HANDLE, c_int, c_char_p, c_void_p, c_size_t]),
    "pagani_integrand_from_vector_function":
        (c_int, [c_void_p, _HANDLE, c_int, c_int, VECTOR_FUNCTION, c_void_p,
                 c_size_t]),
    "pagani_integrand_from_vector_source":
        (c_int, [c_void_p, _HANDLE, c_int, c_int, c_char_p, c_void_p,
                 c_size_t]),
    "pagani_integrand_from_block_function":
        (c_int, [c_void_p, _HANDLE, c_int, c_int, BLOCK_FUNCTION, c_void_p,
                 c_longlong, c_void_p, c_size_t]),
    "pagani_integrand_gradient_from_source":
        (c_int, [c_void_p, _HANDLE, c_int, c_int, c_char_p, c_void_p,
                 c_size_t, POINTER(c_int), c_int]),
    "pagani_integrand_destroy": (None, [c_void_p]),
    "pagani_options_default": (Options, [c_int]),
    "pagani_vegas_grid_create": (c_int, [POINTER(c_void_p)]),
    "pagani_vegas_grid_destroy": (None, [c_void_p]),
    "pagani_integrate":
        (c_int, [c_void_p, c_void_p, _DOUBLES, _DOUBLES, POINTER(Options),
                 POINTER(ResultStruct)]),
    "pagani_integrate_vector":
        (c_int, [c_void_p, c_void_p, _DOUBLES, _DOUBLES, POINTER(Options),
                 POINTER(ResultStruct), _DOUBLES, _DOUBLES]),
    "pagani_integrate_batch":
        (c_int, [c_void_p, c_void_p, c_int, c_void_p, c_size_t, _DOUBLES,
                 _DOUBLES, c_size_t, POINTER(Options),
                 POINTER(ResultStruct)]),
    "pagani_integrate_batch_vector":
        (c_int, [c_void_p, c_void_p, c_int, c_void_p, c_size_t, _DOUBLES,
                 _DOUBLES, c_size_t, POINTER(Options), POINTER(ResultStruct),
                 _DOUBLES, _DOUBLES]),
    "pagani_strerror": (c_char_p, [c_int]),
    "pagani_status_name": (c_char_p, [c_int]),
    "pagani_method_name": (c_char_p, [c_int]),
    "pagani_backend_name": (c_char_p, [c_int]),
    "pagani_auto_reason_name": (c_char_p, [c_int]),
    "pagani_version": (c_char_p, []),
}
for _name, (_restype, _argtypes) in _PROTOTYPES.items():
    if hasattr(lib, _name):
        _function = getattr(lib, _name)
        _function.restype = _restype
        _function.argtypes = _argtypes

HAS_BLOCK_FUNCTION = hasattr(lib, "pagani_integrand_from_block_function")


def text(value: bytes) -> str:
    """A C string the library returned, as str."""
    return value.decode("utf-8", "replace") if value else ""
