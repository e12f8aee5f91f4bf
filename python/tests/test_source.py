"""C source integrands, every method, on the CPU and (where usable) the
GPU, against analytic values."""

import math

import numpy as np
import pytest

import pagani

GAUSS_2D = (math.sqrt(math.pi) / 2 * math.erf(1)) ** 2


@pytest.mark.parametrize("method", ["cubature", "vegas", "qmc"])
def test_expression_every_method(context, method):
    r = pagani.integrate("exp(-x[0]*x[0] - x[1]*x[1])", [0, 0], [1, 1],
                         method=method, epsrel=1e-4, context=context)
    assert r.converged and r.status == "converged"
    assert r.method == method and r.backend == context.backend
    # Monte Carlo: one sigma; 5 sigma is a statistical bound with the
    # fixed default seed
    bound = 1e-4 * GAUSS_2D if method == "cubature" else 5 * r.error
    assert abs(r.value - GAUSS_2D) <= bound
    assert r.evaluations > 0 and r.iterations > 0


def test_body_with_params(context):
    body = "double s = 0;\nfor (int i = 0; i < n; i++) s += p[0] * x[i];\nreturn s;"
    r = pagani.integrate(body, [0, 0, 0], [1, 2, 3], params=[2.0],
                         epsrel=1e-8, context=context)
    # 2 * (1/2 * 6 + 2 * 3 + 9/2 * 2) = 2 * (3 + 6 + 9) = 36
    assert r.converged
    assert r.value == pytest.approx(36.0, rel=1e-8)


def test_vector_source(context):
    r = pagani.integrate("f[0] = 1; f[1] = x[0]; f[2] = x[0] * x[1];",
                         [0, 0], [1, 2], ncomp=3, epsrel=1e-8,
                         context=context)
    assert isinstance(r.value, np.ndarray) and r.value.shape == (3,)
    assert r.error.shape == (3,)
    np.testing.assert_allclose(r.value, [2.0, 1.0, 1.0], rtol=1e-8)
    assert r.converged


def test_auto_backend_default_context():
    r = pagani.integrate("x[0]", [0], [2])
    assert r.value == pytest.approx(2.0, rel=1e-12)
    assert r.backend in ("cpu", "cuda")


def test_options_reach_the_library(cpu):
    r = pagani.integrate("exp(-100*x[0]*x[0])", [-1, -1], [1, 1],
                         method="vegas", vegas_calls=1e4, max_iterations=3,
                         epsrel=1e-9, seed=7, context=cpu)
    assert r.iterations == 3 and r.status == "iteration limit reached"
    assert not r.converged
    assert r.evaluations <= 3 * 1e4 * 1.01
    q = pagani.integrate("x[0]", [0], [1], method="qmc", qmc_shifts=4,
                         context=cpu)
    assert q.evaluations % 4 == 0


def test_progress_callable_sees_iterations_and_can_stop(cpu):
    seen = []

    def report(iteration, active, value, error):
        seen.append((iteration, active, value, error))
        return iteration >= 2

    r = pagani.integrate("exp(-1000*x[0]*x[0])", [-1, -1], [1, 1],
                         method="vegas", vegas_calls=1e4, epsrel=1e-9,
                         progress=report, context=cpu)
    assert [s[0] for s in seen] == [1, 2]
    assert r.status.startswith("stopped") and not r.converged


def test_progress_true_prints_a_line_without_tqdm(cpu, capsys, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import fails
    pagani.integrate("x[0]*x[1]", [0, 0], [1, 1], progress=True,
                     context=cpu)
    assert "pagani: iteration 1" in capsys.readouterr().err


def test_help_explains_arguments_and_converged():
    doc = pagani.integrate.__doc__
    for word in ("epsrel", "epsabs", "params", "ncomp", "max_evaluations",
                 "progress", "context", "cubature", "vegas and qmc",
                 "converged", "default 0.0"):
        assert word in doc


def test_unbounded_gaussian_over_the_plane():
    r = pagani.integrate("exp(-x[0]*x[0] - x[1]*x[1])", [-np.inf, -np.inf],
                         [np.inf, np.inf], method="cubature", epsrel=1e-6,
                         backend="cpu")
    assert r.converged
    assert abs(r.value - np.pi) <= 1e-6 * np.pi


def test_unbounded_wide_gaussian_far_from_zero():
    # width 1e3 centred at 1e4 on the line, e^(-x/2) on [0, inf) with the
    # exponential map at its rate: 1000 sqrt(2 pi) * 2
    f = "exp(-0.5 * pow((x[0] - 1e4) / 1e3, 2) - 0.5 * x[1])"
    truth = 1e3 * np.sqrt(2 * np.pi) * 2.0
    r = pagani.integrate(f, [-np.inf, 0], [np.inf, np.inf],
                         method="cubature", epsrel=1e-8, backend="cpu",
                         domain_centers=[1e4, 0], domain_scales=[2e3, 2])
    assert r.converged
    assert abs(r.value - truth) <= 1e-8 * truth
    exp_map = pagani.integrate("exp(-0.5 * x[0])", [0], [np.inf],
                               method="cubature", epsrel=1e-10,
                               backend="cpu", domain_map="exponential",
                               domain_scale=2.0)
    assert exp_map.converged and abs(exp_map.value - 2.0) <= 2e-10
    with pytest.raises(ValueError):
        pagani.integrate(f, [-np.inf, 0], [np.inf, np.inf],
                         domain_centers=[1e4])
    with pytest.raises(ValueError):
        pagani.integrate(f, [-np.inf, 0], [np.inf, np.inf],
                         domain_map="gaussian")
    with pytest.raises(pagani.OptionError):
        pagani.integrate(f, [-np.inf, 0], [np.inf, np.inf],
                         domain_scales=[1.0, -1.0], backend="cpu")


def test_breaks_put_faces_on_a_kink():
    f = "fabs(x[0] - 0.3) * (x[1] < 0.7 ? 1.0 : 2.0)"
    truth = (0.3 ** 2 / 2 + 0.7 ** 2 / 2) * (0.7 + 2 * 0.3)
    with_breaks = pagani.integrate(f, [0, 0], [1, 1], method="cubature",
                                   epsrel=1e-9, backend="cpu",
                                   breaks=[[0.3], [0.7]])
    assert with_breaks.converged
    assert abs(with_breaks.value - truth) <= 1e-9 * truth
    with pytest.raises(ValueError):
        pagani.integrate(f, [0, 0], [1, 1], breaks=[[0.3]])
