"""Checkpoints: state= and state_interval= (README, "Checkpoints and warm
starts"): a QMC or Vegas run stopped by its iteration limit resumes from its
file to the bits of the run never stopped; a file of another integral raises
StateError and is left alone."""

import pytest

import pagani

SOURCE = "exp(-(x[0]-p[0])*(x[0]-p[0]) - x[1]*x[1] - x[2]*x[2])"
ARGS = dict(method="qmc", epsrel=1e-6, seed=3, qmc_initial_points=1024)
METHODS = {"qmc": ARGS,
           "vegas": dict(method="vegas", epsrel=1e-3, seed=3,
                         vegas_calls=4000, vegas_adjust_iterations=2)}


@pytest.mark.parametrize("method", sorted(METHODS))
def test_stopped_run_resumes_to_the_same_bits(cpu, tmp_path, method):
    args = METHODS[method]
    path = tmp_path / "run.state"
    whole = pagani.integrate(SOURCE, [0, 0, 0], [1, 1, 1], params=[0.3],
                             context=cpu, **args)
    assert whole.status == "converged" and whole.iterations >= 3
    cut = pagani.integrate(SOURCE, [0, 0, 0], [1, 1, 1], params=[0.3],
                           context=cpu, state=path, state_interval=0,
                           max_iterations=2, **args)
    assert cut.status != "converged" and path.exists()
    resumed = pagani.integrate(SOURCE, [0, 0, 0], [1, 1, 1], params=[0.3],
                               context=cpu, state=str(path), **args)
    assert (resumed.value, resumed.error, resumed.status,
            resumed.evaluations, resumed.iterations) == \
        (whole.value, whole.error, whole.status, whole.evaluations,
         whole.iterations)


def test_file_of_another_integral_is_refused(cpu, tmp_path):
    path = tmp_path / "run.state"
    pagani.integrate(SOURCE, [0, 0, 0], [1, 1, 1], params=[0.3], context=cpu,
                     state=path, max_iterations=1, **ARGS)
    before = path.read_bytes()
    with pytest.raises(pagani.StateError) as e:
        pagani.integrate(SOURCE, [0, 0, 0], [1, 1, 1], params=[0.4],
                         context=cpu, state=path, **ARGS)
    assert e.value.code == 18 and "parameter blocks" in e.value.message
    assert path.read_bytes() == before
