"""The layout of a gradient integrand's components (pagani.h,
"gradients"): its values, then each value's derivatives by the chosen
parameters; made from integrate()'s ``gradient`` keyword."""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

Gradient_t = Union[bool, Sequence[int]]


class GradientLayout:
    """values: the integrand's values (ncomp, or 1 when scalar); m: the
    derivatives of each; which: the parameters' indices (None: all)."""

    def __init__(self, f: Any, gradient: Gradient_t, ncomp: Optional[int],
                 width: int) -> None:
        if not isinstance(f, str):
            raise TypeError("gradient= differentiates C source: give f as "
                            "a str (a host callback can integrate its own "
                            "derivatives as a vector integrand)")
        if gradient is True:
            self.which = None
            self.m = width
        else:
            self.which = np.ascontiguousarray(gradient, dtype=np.intc)
            if self.which.ndim != 1:
                raise ValueError("gradient must be True or a sequence of "
                                 "parameter indices")
            self.m = self.which.size
        self.ncomp = ncomp
        self.values = 1 if ncomp is None else ncomp
        self.total = self.values * (1 + self.m)

    def split(self, values: np.ndarray,
              errors: np.ndarray) -> Tuple[Any, Any, np.ndarray, np.ndarray]:
        """value, error, gradient, gradient_error of one integral's
        components: value a float (an array of ncomp with ncomp), the
        gradient an array (m,) ((ncomp, m) with ncomp)."""
        c, m = self.values, self.m
        shape = (m,) if self.ncomp is None else (c, m)
        value = values[0] if self.ncomp is None else values[:c].copy()
        error = errors[0] if self.ncomp is None else errors[:c].copy()
        return (value, error, values[c:].reshape(shape).copy(),
                errors[c:].reshape(shape).copy())


def layout(f: Any, gradient: Gradient_t, ncomp: Optional[int],
           params: Optional[np.ndarray]) -> Optional[GradientLayout]:
    """The layout asked for by ``gradient`` (False: None)."""
    if gradient is False or gradient is None:
        return None
    width = 0 if params is None else params.shape[-1]
    return GradientLayout(f, gradient, ncomp, width)
