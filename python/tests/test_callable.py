"""Vectorized Python callables (pagani_integrand_from_block_function):
values against analytic ones, parameters, vectors, and what a faulty
callable raises."""

import math
import traceback

import numpy as np
import pytest

import pagani
from pagani import _clib


@pytest.mark.parametrize("method", ["cubature", "vegas", "qmc"])
def test_scalar_every_method(cpu, method):
    def gauss(x):
        assert x.ndim == 2 and x.shape[1] == 3 and x.dtype == np.float64
        return np.exp(-np.sum(x * x, axis=1))

    r = pagani.integrate(gauss, [0, 0, 0], [1, 1, 1], method=method,
                         epsrel=1e-4, context=cpu)
    truth = (math.sqrt(math.pi) / 2 * math.erf(1)) ** 3
    bound = 1e-4 * truth if method == "cubature" else 5 * r.error
    assert r.converged and abs(r.value - truth) <= bound
    assert r.backend == "cpu"


def test_same_result_as_the_one_point_form(cpu):
    # the block form gives the one-point host function's result bit for
    # bit (pagani.h); a polynomial, so that both compute the same doubles
    @_clib.FUNCTION
    def one_point(x, n, params):
        return x[0] * x[0] * x[1] + 3.0 * x[1] * x[2]

    def block(x):
        return x[:, 0] * x[:, 0] * x[:, 1] + 3.0 * x[:, 1] * x[:, 2]

    for method in ("cubature", "vegas", "qmc"):
        a = pagani.integrate(one_point, [0] * 3, [1] * 3, method=method,
                             epsrel=1e-5, context=cpu)
        b = pagani.integrate(block, [0] * 3, [1] * 3, method=method,
                             epsrel=1e-5, context=cpu)
        assert (b.value, b.error, b.evaluations) == \
            (a.value, a.error, a.evaluations)
        assert b.value == pytest.approx(1 / 6 + 3 / 4, rel=1e-4)


def test_params_and_vector(cpu):
    def f(x, p):
        return np.stack([p[0] * x[:, 0], p[1] * x[:, 0] ** 2], axis=1)

    r = pagani.integrate(f, [0], [1], params=[3.0, 6.0], ncomp=2,
                         epsrel=1e-10, context=cpu)
    np.testing.assert_allclose(r.value, [1.5, 2.0], rtol=1e-10)


def test_exception_is_reraised_with_traceback(cpu):
    calls = []

    def broken(x):
        calls.append(len(x))
        raise ZeroDivisionError("inside the integrand")

    with pytest.raises(ZeroDivisionError, match="inside the integrand") as e:
        pagani.integrate(broken, [0, 0], [1, 1], context=cpu)
    assert len(calls) == 1  # stopped at once
    frames = [f.name for f in traceback.extract_tb(e.value.__traceback__)]
    assert "broken" in frames
    # the context is usable afterwards
    r = pagani.integrate(lambda x: x[:, 0], [0], [1], context=cpu)
    assert r.converged and r.value == pytest.approx(0.5)


def test_wrong_shape(cpu):
    with pytest.raises(ValueError, match=r"shape \(\d+, 1\).*expected \(\d+,\)"):
        pagani.integrate(lambda x: x[:, :1], [0, 0], [1, 1], context=cpu)
    with pytest.raises(ValueError, match="expected"):
        pagani.integrate(lambda x: x, [0, 0], [1, 1], ncomp=3, context=cpu)


def test_wrong_dtype(cpu):
    with pytest.raises(TypeError, match="complex128"):
        pagani.integrate(lambda x: x[:, 0] + 1j, [0], [1], context=cpu)
    with pytest.raises(TypeError, match="numpy array"):
        pagani.integrate(lambda x: 1.0, [0], [1], context=cpu)


def test_nan_is_nonfinite_error(cpu):
    with pytest.raises(pagani.NonFiniteError) as e:
        pagani.integrate(lambda x: np.where(x[:, 0] > 0.5, np.nan, 1.0),
                         [0], [1], context=cpu)
    assert e.value.code == 8 and "nan" in str(e.value).lower()
