"""Compiled callbacks with the C host signature (ctypes function
pointers, scipy.LowLevelCallable, numba cfunc), and the vectorized host
integrand (pagani_integrand_from_block_function) called from C."""

import ctypes

import numpy as np
import pytest

import pagani
from pagani import _clib


def test_ctypes_function_pointer(cpu, compiled):
    f = ctypes.cast(compiled.product, _clib.FUNCTION)
    r = pagani.integrate(f, [0] * 4, [1] * 4, epsrel=1e-10, context=cpu)
    assert r.converged and r.value == pytest.approx(1 / 16, rel=1e-10)


def test_ctypes_function_with_params(cpu, compiled):
    f = ctypes.cast(compiled.decay, _clib.FUNCTION)
    r = pagani.integrate(f, [0], [1], params=[2.0], epsrel=1e-10,
                         context=cpu)
    assert r.value == pytest.approx((1 - np.exp(-2)) / 2, rel=1e-10)


def test_ctypes_vector_function(cpu, compiled):
    f = ctypes.cast(compiled.moments, _clib.VECTOR_FUNCTION)
    r = pagani.integrate(f, [0], [4], ncomp=2, epsrel=1e-10, context=cpu)
    np.testing.assert_allclose(r.value, [4.0, 8.0], rtol=1e-10)


def test_low_level_callable(cpu, compiled):
    scipy = pytest.importorskip("scipy")
    compiled.product.restype = ctypes.c_double
    compiled.product.argtypes = [ctypes.POINTER(ctypes.c_double),
                                 ctypes.c_int, ctypes.c_void_p]
    f = scipy.LowLevelCallable(compiled.product)
    r = pagani.integrate(f, [0, 0], [1, 1], epsrel=1e-10, context=cpu)
    assert r.value == pytest.approx(0.25, rel=1e-10)


def test_numba_cfunc(cpu):
    numba = pytest.importorskip("numba")

    @numba.cfunc("float64(CPointer(float64), int32, voidptr)")
    def square(x, n, params):
        return x[0] * x[0]

    r = pagani.integrate(square, [0], [3], epsrel=1e-10, context=cpu)
    assert r.value == pytest.approx(9.0, rel=1e-10)


def _integrate_block(cpu, function, data, max_block):
    """Integrates the C block function over [0,1]^3 to 1e-10 through the
    C API: (return code, pagani_result)."""
    handle = ctypes.c_void_p()
    rc = _clib.lib.pagani_integrand_from_block_function(
        cpu.handle, ctypes.byref(handle), 3, 1,
        ctypes.cast(function, _clib.BLOCK_FUNCTION),
        ctypes.cast(ctypes.byref(data), ctypes.c_void_p), max_block, None, 0)
    assert rc == _clib.OK, cpu.error(rc)
    lo, hi = (ctypes.c_double * 3)(0, 0, 0), (ctypes.c_double * 3)(1, 1, 1)
    opt = _clib.lib.pagani_options_default(1)
    opt.epsrel = 1e-10
    out = _clib.ResultStruct()
    try:
        rc = _clib.lib.pagani_integrate(cpu.handle, handle, lo, hi,
                                        ctypes.byref(opt), ctypes.byref(out))
    finally:
        _clib.lib.pagani_integrand_destroy(handle)
    return rc, out


def test_block_function_from_c(cpu, compiled):
    points = ctypes.c_longlong(0)
    rc, out = _integrate_block(cpu, compiled.block_square_sum, points, 100)
    assert rc == _clib.OK
    assert out.value == pytest.approx(1.0, rel=1e-10)  # n / 3
    assert out.status == _clib.CONVERGED
    assert points.value == out.evaluations


def test_block_function_nonzero_aborts(cpu, compiled):
    rc, _ = _integrate_block(cpu, compiled.block_abort, ctypes.c_longlong(0),
                             0)
    assert rc == _clib.ERR_ABORTED
    error = cpu.error(rc)
    assert isinstance(error, pagani.AbortedError) and "42" in error.message
