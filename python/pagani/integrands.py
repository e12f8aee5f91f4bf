"""The forms of f that integrate() takes, each turned into a
pagani_integrand: C source, a vectorized Python callable (through the
library's block function) and compiled callbacks (ctypes, numba cfunc,
scipy.LowLevelCallable)."""

from __future__ import annotations

import ctypes
import sys
from types import TracebackType
from typing import Any, Callable, Optional, Tuple, Type

import numpy as np

from . import _clib
from .context import Context

ExcInfo = Tuple[Type[BaseException], BaseException, TracebackType]


class Integrand:
    """A pagani_integrand with what must outlive it (callbacks, the
    parameter array) and the exception a Python callback raised."""

    def __init__(self, context: Context, ncomp: Optional[int],
                 keep: Tuple[Any, ...] = ()) -> None:
        self.context = context
        self.ncomp = ncomp
        self.handle = ctypes.c_void_p()
        self.keep = keep
        self.exception: Optional[ExcInfo] = None

    def create(self, rc: int) -> "Integrand":
        """Raises the context's error when the creating call failed."""
        if rc != _clib.OK:
            raise self.context.error(rc)
        return self

    def destroy(self) -> None:
        _clib.lib.pagani_integrand_destroy(self.handle)
        self.handle = ctypes.c_void_p()


def _params_block(params: Optional[np.ndarray]) -> Tuple[Any, int]:
    if params is None or params.size == 0:
        return None, 0
    return params.ctypes.data_as(ctypes.c_void_p), params.nbytes


def from_source(context: Context, source: str, n: int,
                ncomp: Optional[int],
                params: Optional[np.ndarray]) -> Integrand:
    """A source integrand; vector (a body writing f[k]) when ncomp is
    given."""
    it = Integrand(context, ncomp)
    block, size = _params_block(params)
    text = source.encode()
    if ncomp is None:
        rc = _clib.lib.pagani_integrand_from_source(
            context.handle, ctypes.byref(it.handle), n, text, block, size)
    else:
        rc = _clib.lib.pagani_integrand_from_vector_source(
            context.handle, ctypes.byref(it.handle), n, ncomp, text, block,
            size)
    return it.create(rc)


def from_gradient_source(context: Context, source: str, n: int,
                         ncomp: Optional[int], params: np.ndarray,
                         which: Optional[np.ndarray]) -> Integrand:
    """A gradient integrand of source (scalar when ncomp is None): its
    values, then each value's derivatives by the parameters p[which[j]]
    (every parameter when which is None)."""
    it = Integrand(context, ncomp)
    block, size = _params_block(params)
    chosen = None if which is None else \
        which.ctypes.data_as(ctypes.POINTER(ctypes.c_int))
    rc = _clib.lib.pagani_integrand_gradient_from_source(
        context.handle, ctypes.byref(it.handle), n, ncomp or 0,
        source.encode(), block, size, chosen,
        0 if which is None else which.size)
    return it.create(rc)


def compiled_address(f: Any) -> Optional[int]:
    """The address of a compiled callback (a ctypes function pointer, a
    numba cfunc, a scipy.LowLevelCallable), or None when f is none."""
    if isinstance(f, ctypes._CFuncPtr):
        return ctypes.cast(f, ctypes.c_void_p).value
    address = getattr(f, "address", None)
    if isinstance(address, int) and hasattr(f, "ctypes"):
        return address
    if type(f).__name__ == "LowLevelCallable" and hasattr(f, "function"):
        return _low_level_address(f)
    return None


def _low_level_address(f: Any) -> int:
    signature = " ".join(f.signature.replace("const ", "").split())
    if signature not in ("double (double *, int, void *)",
                         "void (double *, int, void *, double *)"):
        raise TypeError(
            "LowLevelCallable signature %r: expected 'double (const double "
            "*, int, const void *)' (or the vector form 'void (const double "
            "*, int, const void *, double *)')" % f.signature)
    if f.user_data is not None:
        raise TypeError("LowLevelCallable user_data is not passed on: give "
                        "the parameters as params=")
    capsule = ctypes.py_object(tuple.__getitem__(f, 0))  # the PyCapsule
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return get_pointer(capsule, get_name(capsule))


def from_compiled(context: Context, address: int, n: int,
                  ncomp: Optional[int],
                  params: Optional[np.ndarray]) -> Integrand:
    """A host-function integrand from a compiled callback's address:
    double f(x, n, params), or void f(x, n, params, f) when ncomp is
    given."""
    block, size = _params_block(params)
    if ncomp is None:
        function = _clib.FUNCTION(address)
        it = Integrand(context, ncomp, (function,))
        rc = _clib.lib.pagani_integrand_from_function(
            context.handle, ctypes.byref(it.handle), n, function, block, size)
    else:
        function = _clib.VECTOR_FUNCTION(address)
        it = Integrand(context, ncomp, (function,))
        rc = _clib.lib.pagani_integrand_from_vector_function(
            context.handle, ctypes.byref(it.handle), n, ncomp, function,
            block, size)
    return it.create(rc)


def _check_values(values: Any, npoints: int, ncomp: Optional[int]) -> None:
    """Raises TypeError/ValueError unless a callable's return value has
    the shape and a dtype the library can take."""
    if not isinstance(values, np.ndarray):
        raise TypeError("the integrand returned %s, expected a numpy array"
                        % type(values).__name__)
    if not (np.issubdtype(values.dtype, np.floating)
            or np.issubdtype(values.dtype, np.integer)):
        raise TypeError("the integrand returned an array of dtype %s, "
                        "expected real floating-point values" % values.dtype)
    expected = (npoints,) if ncomp is None else (npoints, ncomp)
    if values.shape != expected:
        raise ValueError("the integrand returned an array of shape %s for "
                         "x of shape (%d, n), expected %s"
                         % (values.shape, npoints, expected))


def _read_only(pointer: int, count: int) -> np.ndarray:
    array = np.ctypeslib.as_array(
        ctypes.cast(pointer, ctypes.POINTER(ctypes.c_double)), shape=(count,))
    array.flags.writeable = False
    return array


def from_callable(context: Context, f: Callable[..., Any], n: int,
                  ncomp: Optional[int], params: Optional[np.ndarray],
                  max_block: int = 0) -> Integrand:
    """A vectorized integrand from a Python callable f(x) or f(x, params),
    x of shape (npoints, n), returning (npoints,) or (npoints, ncomp)."""
    if not _clib.HAS_BLOCK_FUNCTION:
        raise NotImplementedError(
            "this libpagani has no pagani_integrand_from_block_function: "
            "Python callables need a newer library")
    width = 1 if ncomp is None else ncomp
    nparams = None if params is None else params.size
    it = Integrand(context, ncomp)

    def block(x_ptr, n_, npoints, params_ptr, f_ptr, _data):
        try:
            x = np.ctypeslib.as_array(x_ptr, shape=(npoints, n_))
            x.flags.writeable = False
            if nparams is None:
                values = f(x)
            else:  # the block of the integral running (batches)
                values = f(x, _read_only(params_ptr, nparams))
            _check_values(values, npoints, ncomp)
            out = np.ctypeslib.as_array(f_ptr, shape=(npoints * width,))
            out[:] = values.reshape(-1)
            return 0
        except BaseException:  # re-raised by integrate()
            it.exception = sys.exc_info()
            return 1

    function = _clib.BLOCK_FUNCTION(block)
    it.keep = (function,)
    block_params, size = _params_block(params)
    rc = _clib.lib.pagani_integrand_from_block_function(
        context.handle, ctypes.byref(it.handle), n, width, function, None,
        max_block, block_params, size)
    return it.create(rc)
