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


def _block_integrand(cpu, function, data, max_block):
    handle = ctypes.c_void_p()
    rc = _clib.lib.pagani_integrand_from_block_function(
        cpu.handle, ctypes.byref(handle), 3, 1, function,
        ctypes.cast(ctypes.byref(data), ctypes.c_void_p), max_block, None, 0)
    assert rc == _clib.OK, cpu.error(rc)
    return handle


def _integrate(cpu, handle):
    lo, hi = (ctypes.c_double * 3)(0, 0, 0), (ctypes.c_double * 3)(1, 1, 1)
    opt = _clib.lib.pagani_options_default(1)
    opt.epsrel = 1e-10
    out = _clib.ResultStruct()
    rc = _clib.lib.pagani_integrate(cpu.handle, handle, lo, hi,
                                    ctypes.byref(opt), ctypes.byref(out))
    return rc, out


def test_block_function_from_c(cpu, compiled):
    function = ctypes.cast(compiled.block_square_sum, _clib.BLOCK_FUNCTION)
    points = ctypes.c_longlong(0)
    handle = _block_integrand(cpu, function, points, 100)
    try:
        rc, out = _integrate(cpu, handle)
    finally:
        _clib.lib.pagani_integrand_destroy(handle)
    assert rc == _clib.OK
    assert out.value == pytest.approx(1.0, rel=1e-10)  # n / 3
    assert out.status == _clib.CONVERGED
    assert points.value == out.evaluations


def test_block_function_nonzero_aborts(cpu, compiled):
    function = ctypes.cast(compiled.block_abort, _clib.BLOCK_FUNCTION)
    data = ctypes.c_longlong(0)
    handle = _block_integrand(cpu, function, data, 0)
    try:
        rc, _ = _integrate(cpu, handle)
    finally:
        _clib.lib.pagani_integrand_destroy(handle)
    assert rc == _clib.ERR_ABORTED
    error = cpu.error(rc)
    assert isinstance(error, pagani.AbortedError) and "42" in error.message
