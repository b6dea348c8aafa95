"""The moves of each variant: the classic 4x4's packed kernel (sliding.py, its tables), the general
kernel (general.py) for every other size. Both derive from rules.slide_line."""

from . import sliding
from .general import GeneralKernel
from .variant import CLASSIC, VARIANTS


class ClassicKernel:
    """The classic 4x4's moves, as the general kernel offers them."""

    variant = CLASSIC
    move = staticmethod(sliding.move)
    valid_moves = staticmethod(sliding.valid_moves)
    is_over = staticmethod(sliding.is_over)


KERNELS = {variant: ClassicKernel() if variant == CLASSIC else GeneralKernel(variant) for variant in VARIANTS.values()}


def kernel_for(variant):
    return KERNELS[variant]
