"""QMC's heavy-tail guard (README "QMC with heavy tails") seen from
Python: a run the guard holds back ends with status "heavy tail", not
converged, its error at least the true error; a bounded integrand is not
held back. The instances are tests/test_qmc_tail.c's (CPU, the tent)."""

import math

import pagani

# prod_i x_i^-1/2 e^(-b_i x_i) over [0,1]^3: its variance is log-divergent
# (f J unbounded at the corner). b is tests/hard_families.h's instance
# (corner, n = 3, seed 4), which at 1e-3 and seed 4 meets the tolerance
# by its shifts' spread but not by the tail's bound before 3e7 points.
CORNER = "double s = 0.0, r = 1.0;\n" \
         "for (int i = 0; i < n; i++) { s += p[i] * x[i]; r *= x[i]; }\n" \
         "return exp(-s) / sqrt(r);"
CORNER_B = [0.56824356499151985, 0.54897321161879786, 1.2353817274026115]

# The Genz product peak in 10-D (tests/qmc_suite.h): bounded, steep.
PEAK = "double v = 1.0;\n" \
       "for (int i = 0; i < n; i++) {\n" \
       "    double d = x[i] - (0.3 + 0.4 * i / n);\n" \
       "    v *= 1.0 / (0.25 + d * d);\n" \
       "}\n" \
       "return v;"

HEAVY_TAIL = "heavy tail: f J unbounded, the error is the tail's bound"


def corner_truth(b):
    """prod_i int_0^1 x^-1/2 e^(-b_i x) dx = prod_i sqrt(pi/b_i) erf(sqrt(b_i))."""
    return math.prod(math.sqrt(math.pi / bi) * math.erf(math.sqrt(bi))
                     for bi in b)


def peak_truth(n):
    return math.prod(2.0 * (math.atan(2.0 * (1.0 - w)) + math.atan(2.0 * w))
                     for w in (0.3 + 0.4 * i / n for i in range(n)))


def test_unbounded_f_is_held_back_as_heavy_tail(cpu):
    r = pagani.integrate(CORNER, [0, 0, 0], [1, 1, 1], params=CORNER_B,
                         method="qmc", epsrel=1e-3, seed=4,
                         max_evaluations=30000000, context=cpu)
    assert r.status == HEAVY_TAIL
    assert not r.converged
    assert r.error >= abs(r.value - corner_truth(CORNER_B))
    # what held it back: the tail's bound, above the tolerance
    assert r.error > 1e-3 * abs(r.value)


def test_bounded_peak_is_not(cpu):
    r = pagani.integrate(PEAK, [0] * 10, [1] * 10, method="qmc",
                         epsrel=1e-4, seed=1, context=cpu)
    assert r.status == "converged" and r.converged
    assert abs(r.value - peak_truth(10)) <= 4 * r.error
