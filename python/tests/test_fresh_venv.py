"""`pip install ./python` in a fresh virtual environment builds the
library from this tree (with the CUDA kernels where nvcc is found), and
the package imports and integrates. It needs PyPI (numpy, setuptools)
and takes minutes: it is marked slow (`-m "not slow"` leaves it out);
.ci/run runs it."""

import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_pip_install_in_a_fresh_venv(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "-q", str(PACKAGE)],
                   check=True, timeout=1200)
    script = ("import pagani\n"
              "r = pagani.integrate('x[0]*x[1]', [0, 0], [1, 2], "
              "backend='cpu')\n"
              "print(r.value, r.converged)\n")
    out = subprocess.run([python, "-c", script], cwd=tmp_path, check=True,
                         capture_output=True, text=True).stdout.split()
    assert float(out[0]) == pytest.approx(1.0, rel=1e-12)
    assert out[1] == "True"
