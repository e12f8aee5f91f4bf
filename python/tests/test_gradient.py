"""integrate(..., gradient=...): the derivatives by the parameters, from
the source, against closed forms; batches; refusals."""

import math

import numpy as np
import pytest

import pagani

# The integral of exp(-a x0 - b x1) over the unit square is g(a) g(b),
# g(a) = (1 - e^-a) / a, whose derivative is (e^-a (1 + a) - 1) / a^2.
SOURCE = "exp(-p[0] * x[0] - p[1] * x[1])"


def g(a):
    return (1 - math.exp(-a)) / a


def dg(a):
    return (math.exp(-a) * (1 + a) - 1) / (a * a)


@pytest.mark.parametrize("method", ["cubature", "vegas", "qmc"])
def test_gradient_against_closed_form(context, method):
    a, b = 1.5, 0.5
    tol = 1e-8 if method == "cubature" else 3e-3
    r = pagani.integrate(SOURCE, [0, 0], [1, 1], params=[a, b],
                         gradient=True, method=method, epsrel=tol,
                         context=context)
    assert r.converged
    assert r.gradient.shape == (2,) and r.gradient_error.shape == (2,)
    truth = [dg(a) * g(b), g(a) * dg(b)]
    bound = tol * np.abs(truth) if method == "cubature" else \
        5 * r.gradient_error
    assert np.all(np.abs(r.gradient - truth) <= bound)
    assert r.value == pytest.approx(g(a) * g(b), rel=10 * tol)


def test_chosen_parameter_and_vector_source(cpu):
    r = pagani.integrate(SOURCE, [0, 0], [1, 1], params=[1.5, 0.5],
                         gradient=[1], epsrel=1e-9, context=cpu)
    assert r.gradient.shape == (1,)
    assert r.gradient[0] == pytest.approx(g(1.5) * dg(0.5), rel=1e-8)
    v = pagani.integrate("f[0] = p[0] * x[0]; f[1] = p[0] * p[1];", [0],
                         [1], params=[2.0, 3.0], ncomp=2, gradient=True,
                         epsrel=1e-10, context=cpu)
    assert v.value.shape == (2,) and v.gradient.shape == (2, 2)
    np.testing.assert_allclose(v.value, [1.0, 6.0], rtol=1e-10)
    np.testing.assert_allclose(v.gradient, [[0.5, 0.0], [3.0, 2.0]],
                               rtol=1e-10, atol=1e-14)


def test_batch_gradients(cpu):
    params = [[1.5, 0.5], [0.5, 2.0], [3.0, 1.0]]
    batch = pagani.integrate_batch(SOURCE, [0, 0], [1, 1], params,
                                   gradient=True, epsrel=1e-9,
                                   epsabs=1e-13, context=cpu)
    assert batch.gradient.shape == (3, 2)
    for k, (a, b) in enumerate(params):
        np.testing.assert_allclose(batch.gradient[k],
                                   [dg(a) * g(b), g(a) * dg(b)], rtol=1e-8)
        assert batch[k].gradient_error.shape == (2,)


def test_refusals(cpu):
    with pytest.raises(pagani.CompileError, match="cannot differentiate"
                       " `floor`"):
        pagani.integrate("floor(p[0] * x[0])", [0], [1], params=[2.0],
                         gradient=True, context=cpu)
    with pytest.raises(TypeError, match="differentiates C source"):
        pagani.integrate(lambda x, p: x[:, 0], [0], [1], params=[2.0],
                         gradient=True, context=cpu)
