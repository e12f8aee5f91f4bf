"""integrate_batch: each result equals the single call's."""

import numpy as np
import pytest

import pagani


@pytest.mark.parametrize("method", ["cubature", "vegas", "qmc"])
def test_batch_equals_single_calls(context, method):
    params = [[1.0], [2.0], [5.0]]
    batch = pagani.integrate_batch("exp(-p[0]*(x[0]*x[0] + x[1]*x[1]))",
                                   [0, 0], [1, 1], params, method=method,
                                   epsrel=1e-5, context=context)
    assert len(batch) == 3 and batch.value.shape == (3,)
    for k, p in enumerate(params):
        single = pagani.integrate("exp(-p[0]*(x[0]*x[0] + x[1]*x[1]))",
                                  [0, 0], [1, 1], params=p, method=method,
                                  epsrel=1e-5, context=context)
        assert batch[k].value == pytest.approx(single.value, rel=1e-13)
        assert batch[k].error == pytest.approx(single.error, rel=1e-9)
        assert batch.evaluations[k] == single.evaluations
        assert batch.status[k] == single.status
        assert batch.converged[k] == single.converged


def test_batch_of_boxes_and_callable(cpu):
    lower = [[0.0], [0.0], [1.0]]
    upper = [[1.0], [2.0], [3.0]]
    batch = pagani.integrate_batch(lambda x, p: p[0] * x[:, 0], lower, upper,
                                   [[1.0], [2.0], [3.0]], epsrel=1e-10,
                                   context=cpu)
    # p * (b^2 - a^2) / 2
    np.testing.assert_allclose(batch.value, [0.5, 4.0, 12.0], rtol=1e-10)
    assert batch.converged.all()


def test_vector_batch(cpu):
    batch = pagani.integrate_batch("f[0] = p[0]; f[1] = p[0] * x[0];", [0],
                                   [1], [[1.0], [4.0]], ncomp=2,
                                   epsrel=1e-10, context=cpu)
    assert batch.value.shape == (2, 2)
    np.testing.assert_allclose(batch.value, [[1.0, 0.5], [4.0, 2.0]],
                               rtol=1e-10)
    np.testing.assert_allclose(batch[1].value, [4.0, 2.0], rtol=1e-10)


def test_nan_in_one_integral_keeps_the_others(cpu):
    with pytest.raises(pagani.NonFiniteError) as e:
        pagani.integrate_batch("p[0] > 1 ? NAN : p[0] * x[0]", [0], [1],
                               [[1.0], [2.0], [0.5]], context=cpu)
    result = e.value.result
    assert np.isnan(result.value[1]) and result.error[1] == np.inf
    np.testing.assert_allclose(result.value[[0, 2]], [0.5, 0.25], rtol=1e-6)


def test_mismatched_boxes(cpu):
    with pytest.raises(pagani.BoundsError, match="2 boxes for 3"):
        pagani.integrate_batch("x[0]", [[0.0], [0.0]], [[1.0], [1.0]],
                               [[1.0], [2.0], [3.0]], context=cpu)
