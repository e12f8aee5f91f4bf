"""Ctrl-C (SIGINT from a thread) ends a long run with KeyboardInterrupt
and leaves the context usable."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import pagani

# A run that would take far longer than this bound: Vegas to 1e-12 on an
# 8-D peak, with no evaluation limit. The bound only guards against a
# hang; a correct run stops within the chunk in flight.
HANG_SECONDS = 120


def _interrupt_after(seconds):
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.parametrize("form", ["source", "callable"])
def test_ctrl_c_stops_and_context_stays_usable(cpu, form):
    if form == "source":
        f = "exp(-100*(x[0]*x[0]+x[1]*x[1]+x[2]*x[2]+x[3]*x[3]))"
    else:
        def f(x):
            return np.exp(-100 * np.sum(x[:, :4] ** 2, axis=1))
    started = time.monotonic()
    timer = _interrupt_after(0.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            pagani.integrate(f, [-1] * 8, [1] * 8, method="vegas",
                             epsrel=1e-12, max_iterations=100000,
                             context=cpu)
    finally:
        timer.cancel()
    assert time.monotonic() - started < HANG_SECONDS
    r = pagani.integrate("x[0]*x[1]", [0, 0], [1, 1], context=cpu)
    assert r.converged and r.value == pytest.approx(0.25, rel=1e-12)
