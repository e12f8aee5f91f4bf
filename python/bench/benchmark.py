"""Benchmark: pagani.integrate (C source, numpy callable) against
scipy.integrate.cubature (SciPy >= 1.15) and Lepage's vegas on the PAGANI
paper's f2 6D, f4 5D and f5 8D (tests/suite.h) and a 3-D Gaussian batch.

    python python/bench/benchmark.py            # 1e-3 rows, batch of 200,
                                                # at most 2e7 evaluations a row
    python python/bench/benchmark.py --full     # 1e-3 and 1e-6, batch of
                                                # 1000, no evaluation cap
    python python/bench/benchmark.py --backend cuda   # pagani on the GPU

Each row: time, evaluations, the true relative error, whether the tool
claimed convergence and, when it did, whether the claim is true (true
relative error <= the tolerance). A comparator that is not installed is
skipped with a line saying so.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Callable, List, Optional, Tuple

import numpy as np

import pagani

# name, n, C source, numpy function, true value (tests/suite.h)
SUITE = [
    ("f2", 6,
     "double r = 1.0;\nfor (int i = 0; i < n; i++) r /= 1.0 / 2500.0 + "
     "(x[i] - 0.5) * (x[i] - 0.5);\nreturn r;",
     lambda x: np.prod(1.0 / (1.0 / 2500.0 + (x - 0.5) ** 2), axis=1),
     (100.0 * math.atan(25.0)) ** 6),
    ("f4", 5,
     "double s = 0.0;\nfor (int i = 0; i < n; i++) s += (x[i] - 0.5) * "
     "(x[i] - 0.5);\nreturn exp(-625.0 * s);",
     lambda x: np.exp(-625.0 * np.sum((x - 0.5) ** 2, axis=1)),
     (math.sqrt(math.pi) / 25.0 * math.erf(12.5)) ** 5),
    ("f5", 8,
     "double s = 0.0;\nfor (int i = 0; i < n; i++) s += fabs(x[i] - 0.5);"
     "\nreturn exp(-10.0 * s);",
     lambda x: np.exp(-10.0 * np.sum(np.abs(x - 0.5), axis=1)),
     (0.2 * (1.0 - math.exp(-5.0))) ** 8),
]

Row = Tuple[str, float, int, float, bool]


def _row(tool: str, run: Callable[[], Tuple[float, int, bool]],
         truth: np.ndarray) -> Row:
    start = time.perf_counter()
    value, evaluations, converged = run()
    seconds = time.perf_counter() - start
    error = float(np.max(np.abs(np.asarray(value) - truth) / np.abs(truth)))
    return tool, seconds, evaluations, error, converged


def _print(case: str, eps: float, row: Row) -> None:
    tool, seconds, evaluations, error, converged = row
    verdict = ("true" if error <= eps else "FALSE") if converged else "-"
    print("%-14s %7.0e  %-22s %9.3f %12d %10.1e  %-9s %s"
          % (case, eps, tool, seconds, evaluations, error,
             "yes" if converged else "no", verdict))


def _counted(f: Callable[[np.ndarray], np.ndarray]):
    calls = [0]

    def g(x):
        calls[0] += len(x)
        return f(x)
    return g, calls


def pagani_row(f, lo, hi, eps, method, backend, truth, label,
               max_evaluations=None) -> Row:
    def run():
        r = pagani.integrate(f, lo, hi, epsrel=eps, method=method,
                             backend=backend, max_evaluations=max_evaluations)
        return r.value, r.evaluations, r.converged
    return _row(label, run, truth)


def scipy_row(f, n, eps, truth, max_subdivisions) -> Optional[Row]:
    try:
        from scipy.integrate import cubature
    except ImportError:
        return None
    g, calls = _counted(f)

    def run():
        r = cubature(g, np.zeros(n), np.ones(n), rule="genz-malik",
                     rtol=eps, atol=0.0, max_subdivisions=max_subdivisions)
        return r.estimate, calls[0], r.status == "converged"
    return _row("scipy cubature", run, truth)


def vegas_row(f, n, eps, truth, max_evaluations) -> Optional[Row]:
    try:
        import vegas
    except ImportError:
        return None

    @vegas.batchintegrand
    def g(x):
        return f(np.asarray(x))

    def run():
        integ = vegas.Integrator([[0, 1]] * n)
        integ(g, nitn=5, neval=100000)  # adapt the grid
        evaluations, result = 5 * 100000, None
        while evaluations < max_evaluations:
            result = integ(g, nitn=5, neval=200000)
            evaluations += 5 * 200000
            if result.sdev <= eps * abs(result.mean):
                return result.mean, evaluations, True
        return result.mean, evaluations, False
    return _row("vegas (Lepage)", run, truth)


def suite(eps_list: List[float], backend: str, have_callable: bool,
          max_subdivisions: int, cap: Optional[int]) -> None:
    for name, n, source, numpy_f, truth in SUITE:
        lo, hi = [0.0] * n, [1.0] * n
        case = "%s %dD" % (name, n)
        for eps in eps_list:
            _print(case, eps, pagani_row(source, lo, hi, eps, "cubature",
                                         backend, truth, "pagani source",
                                         cap))
            if have_callable:
                _print(case, eps, pagani_row(numpy_f, lo, hi, eps,
                                             "cubature", "cpu", truth,
                                             "pagani numpy", cap))
            row = scipy_row(numpy_f, n, eps, truth, max_subdivisions)
            if row:
                _print(case, eps, row)
            if eps >= 1e-4:  # the Monte Carlo rows
                _print(case, eps, pagani_row(source, lo, hi, eps, "vegas",
                                             backend, truth,
                                             "pagani vegas source",
                                             cap or int(1e8)))
                row = vegas_row(numpy_f, n, eps, truth, cap or int(5e7))
                if row:
                    _print(case, eps, row)


def gaussian_batch(count: int, eps: float, backend: str,
                   have_callable: bool) -> None:
    a = np.logspace(0, 2, count)
    truth = (np.sqrt(np.pi / a) * np.vectorize(math.erf)(np.sqrt(a) / 2)) ** 3
    source = "exp(-p[0] * ((x[0]-.5)*(x[0]-.5) + (x[1]-.5)*(x[1]-.5) " \
             "+ (x[2]-.5)*(x[2]-.5)))"
    case = "gauss 3D x%d" % count

    def batch(f, label, where):
        def run():
            r = pagani.integrate_batch(f, [0.0] * 3, [1.0] * 3, a[:, None],
                                       epsrel=eps, method="cubature",
                                       backend=where)
            return r.value, int(r.evaluations.sum()), bool(r.converged.all())
        _print(case, eps, _row(label, run, truth))

    batch(source, "pagani batch source", backend)
    if have_callable:
        batch(lambda x, p: np.exp(-p[0] * np.sum((x - 0.5) ** 2, axis=1)),
              "pagani batch numpy", "cpu")
    try:
        from scipy.integrate import cubature
    except ImportError:
        print("scipy.integrate.cubature not installed: its rows skipped")
        return
    g, calls = _counted(lambda x: np.exp(
        -np.sum((x - 0.5) ** 2, axis=1)[:, None] * a[None, :]))

    def run():
        r = cubature(g, np.zeros(3), np.ones(3), rule="genz-malik",
                     rtol=eps, atol=0.0)
        # each point evaluates all `count` integrands
        return r.estimate, calls[0] * count, r.status == "converged"
    _print(case, eps, _row("scipy cubature (array)", run, truth))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true",
                        help="also 1e-6, and the batch of 1,000")
    parser.add_argument("--backend", default="cpu",
                        help="pagani's backend for source rows (cpu, cuda)")
    args = parser.parse_args()
    have_callable = pagani._clib.HAS_BLOCK_FUNCTION
    if not have_callable:
        print("this libpagani has no block function: numpy rows skipped")
    for module in ("scipy", "vegas"):
        try:
            __import__(module)
        except ImportError:
            print("%s not installed: its rows skipped" % module)
    print("%-14s %7s  %-22s %9s %12s %10s  %-9s %s"
          % ("integrand", "epsrel", "tool", "seconds", "evaluations",
             "true err", "converged", "claim"))
    suite([1e-3, 1e-6] if args.full else [1e-3], args.backend,
          have_callable, 100000 if args.full else 2000,
          None if args.full else int(2e7))
    gaussian_batch(1000 if args.full else 200, 1e-3, args.backend,
                   have_callable)


if __name__ == "__main__":
    main()
