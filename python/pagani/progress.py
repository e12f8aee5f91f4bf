"""The progress callback: integrate(progress=True) shows a bar (tqdm
where installed, else a line on stderr); a callable receives
(iteration, active, value, error) and stops the run by returning True."""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional

from . import _clib
from .integrands import Integrand

ProgressFn = Callable[[int, int, float, float], Optional[bool]]


class _Display:
    """progress=True: tqdm when importable, else one rewritten line."""

    def __init__(self) -> None:
        try:
            from tqdm import tqdm
        except ImportError:
            self.bar = None
        else:
            self.bar = tqdm(desc="pagani", unit="it", file=sys.stderr)

    def __call__(self, iteration: int, active: int, value: float,
                 error: float) -> None:
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix(value="%.10g" % value, error="%.3g" % error,
                                 active=active)
        else:
            sys.stderr.write("\rpagani: iteration %d, %d active, "
                             "%.10g +- %.3g" % (iteration, active, value,
                                                error))
            sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        else:
            sys.stderr.write("\n")


class Progress:
    """The C progress callback for one integration (or None), and what
    closes the display afterwards."""

    def __init__(self, progress: Any, integrand: Integrand) -> None:
        self.display = _Display() if progress is True else None
        report = self.display if self.display is not None else progress
        self.callback: Optional[Any] = None
        if report in (None, False):
            return
        if not callable(report):
            raise TypeError("progress must be None, True or a callable "
                            "(iteration, active, value, error)")

        def call(iteration, size, value, error, _data):
            try:
                return 1 if report(iteration, size, value, error) else 0
            except BaseException:  # re-raised by integrate()
                integrand.exception = sys.exc_info()
                return 1

        self.callback = _clib.PROGRESS(call)

    def install(self, options: _clib.Options) -> None:
        if self.callback is not None:
            options.progress = self.callback

    def close(self) -> None:
        if self.display is not None:
            self.display.close()
