"""The exceptions of the package: every error code of the library becomes
a PaganiError (or a subclass) carrying the code and the context's
message."""

from __future__ import annotations

import re
from typing import Dict, List, Type

from . import _clib


class PaganiError(Exception):
    """An error reported by libpagani.

    Attributes
    ----------
    code : int
        The library's error code (enum pagani_error).
    message : str
        The details the library kept (pagani_context_message).
    """

    def __init__(self, code: int, message: str) -> None:
        self.code = code
        self.message = message
        name = _clib.text(_clib.lib.pagani_strerror(code))
        if not message:
            super().__init__(name)
        elif message.startswith(name):
            super().__init__(message)
        else:
            super().__init__("%s: %s" % (name, message))


class CompileError(PaganiError):
    """Integrand source did not compile. ``lines`` holds the line numbers
    of the source that the compiler's log names (1 is the first line)."""

    @property
    def lines(self) -> List[int]:
        found = re.findall(r"^integrand:(\d+):", self.message, re.MULTILINE)
        return sorted({int(line) for line in found})


class OptionError(PaganiError, ValueError):
    """An option (tolerance, method setting, dimension, components) is out
    of its range."""


class BoundsError(OptionError):
    """The box is invalid: wrong length, not finite, lower >= upper, or a
    width or volume outside the range of a double."""


class ParamsError(PaganiError, ValueError):
    """The parameter block does not fit what the source reads."""


class NonFiniteError(PaganiError, ArithmeticError):
    """The integrand returned NaN or infinity (the message names a
    point). For a batch, ``result`` holds the BatchResult of the
    integrals (those that met NaN have value NaN, error inf)."""

    result = None


class BackendUnavailableError(PaganiError):
    """The backend asked for cannot run here (e.g. CUDA without a GPU)."""


class AbortedError(PaganiError):
    """A C block function returned non-zero; the message holds its value."""


class StateError(PaganiError):
    """The checkpoint file (``state=``) belongs to another integral,
    method or number of ranks, or is truncated, damaged, foreign or of
    another format; the message names which. The file is left alone."""


_CLASSES: Dict[int, Type[PaganiError]] = {
    _clib.ERR_COMPILE: CompileError,
    _clib.ERR_TOLERANCE: OptionError,
    _clib.ERR_OPTION: OptionError,
    _clib.ERR_DIMENSION: OptionError,
    _clib.ERR_COMPONENTS: OptionError,
    _clib.ERR_BOUNDS: BoundsError,
    _clib.ERR_PARAMS: ParamsError,
    _clib.ERR_NONFINITE: NonFiniteError,
    _clib.ERR_BACKEND_UNAVAILABLE: BackendUnavailableError,
    _clib.ERR_ABORTED: AbortedError,
    _clib.ERR_STATE: StateError,
}


def error_for(code: int, message: str) -> PaganiError:
    """The exception for a library error code."""
    return _CLASSES.get(code, PaganiError)(code, message)
