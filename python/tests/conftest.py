"""Fixtures: a context per backend; the CUDA one skips where no GPU is
usable (never passes)."""

import subprocess
from pathlib import Path

import pytest

import pagani


@pytest.fixture(scope="session", params=["cpu", "cuda"])
def context(request):
    try:
        ctx = pagani.Context(request.param)
    except pagani.BackendUnavailableError as error:
        pytest.skip("no usable GPU: %s" % error.message)
    yield ctx
    ctx.close()


@pytest.fixture(scope="session")
def cpu():
    with pagani.Context("cpu") as ctx:
        yield ctx


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    """A shared object built from tests/callbacks.c, loaded with ctypes."""
    import ctypes
    folder = tmp_path_factory.mktemp("callbacks")
    library = folder / "callbacks.so"
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(library),
                    str(Path(__file__).with_name("callbacks.c")), "-lm"],
                   check=True)
    return ctypes.CDLL(str(library))
