"""Vegas batches of a scan with warm starts: batch_warm_stride= in
integrate_batch (README, "Checkpoints and warm starts"): a batch of nearby
Gaussians with one pilot in 4 converges within 4 reported errors of the
closed form, with fewer evaluations than the same batch cold; a stride of
1 raises OptionError."""

import math

import pytest

import pagani

SOURCE = ("double s = 0.0;"
          "for (int i = 0; i < n; i++) s += (x[i] - p[0]) * (x[i] - p[0]);"
          "return exp(-s / 0.04);")
ARGS = dict(method="vegas", epsrel=1e-3, vegas_calls=1e4, seed=7)
CENTRES = [[0.45 + 0.004 * k] for k in range(24)]


def truth(c, n):
    w = 0.2
    axis = 0.5 * math.sqrt(math.pi) * w * (math.erf((1 - c) / w)
                                           + math.erf(c / w))
    return axis ** n


def test_warm_batch_is_honest_and_cheaper(cpu):
    warm = pagani.integrate_batch(SOURCE, [0] * 3, [1] * 3, CENTRES,
                                  context=cpu, batch_warm_stride=4, **ARGS)
    cold = pagani.integrate_batch(SOURCE, [0] * 3, [1] * 3, CENTRES,
                                  context=cpu, **ARGS)
    for k, (c,) in enumerate(CENTRES):
        assert warm.converged[k]
        assert abs(warm.value[k] - truth(c, 3)) <= 4 * warm.error[k]
    assert warm.evaluations.sum() < cold.evaluations.sum()


def test_stride_of_one_is_refused(cpu):
    with pytest.raises(pagani.OptionError) as e:
        pagani.integrate_batch(SOURCE, [0] * 3, [1] * 3, CENTRES, context=cpu,
                               batch_warm_stride=1, **ARGS)
    assert "at least 2" in e.value.message
