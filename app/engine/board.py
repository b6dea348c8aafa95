"""Bit packing of a board into one Python int, for every variant.

Cell (r, c) of a board of side n holds an exponent in ``variant.cell_bits`` bits at bit
cell_bits * (n * r + c): 0 is empty and k is the tile 2**k. On the classic 4x4 that is five bits a
cell (its ladder reaches 2**17 = 131072, which four bits cannot hold), a row in 20 bits: the classic
kernel's tables give a row's 20 bits after a slide (see tables).
"""

from .variant import VARIANTS

# Every tile any variant can hold, by value: the largest ladder's, checked against a game's own top.
TOP_EXPONENT = max(variant.max_exponent for variant in VARIANTS.values())
EXPONENT_BY_VALUE = {0: 0} | {1 << k: k for k in range(1, TOP_EXPONENT + 1)}


def value_of(exponent: int) -> int:
    return 1 << exponent if exponent else 0


# Every exponent a cell can hold, as its tile: unpack's table, derived from value_of.
VALUES = tuple(value_of(exponent) for exponent in range(1 << TOP_EXPONENT.bit_length()))


def exponent_of(value: int) -> int:
    """Exponent stored for a tile value; raises ValueError for non-tiles."""
    try:
        return EXPONENT_BY_VALUE[value]
    except (KeyError, TypeError):
        raise ValueError(f"{value!r} is not a tile value") from None


def exponents(board: int, variant) -> list[int]:
    """All the cells' exponents in row-major order: one pass, for code that looks at every cell."""
    mask = variant.cell_mask
    return [board >> shift & mask for shift in variant.shifts]


def pack(grid, variant=None) -> int:
    """Board from a square list of rows of tile values (0 = empty); its variant is that of its
    size unless given."""
    variant = variant or VARIANTS[len(grid)]
    grid = [[exponent_of(value) for value in row] for row in grid]
    if max(map(max, grid)) > variant.max_exponent:
        raise ValueError(f"a {variant.size}x{variant.size} board holds no tile past {variant.max_tile}")
    return from_exponent_grid(grid, variant)


def unpack(board: int, variant) -> list[list[int]]:
    """The board as a list of rows of tile values (0 = empty)."""
    values, size = [VALUES[k] for k in exponents(board, variant)], variant.size
    return [values[r * size : (r + 1) * size] for r in range(size)]


def exponent_grid(board: int, variant) -> list[list[int]]:
    flat, size = exponents(board, variant), variant.size
    return [flat[r * size : (r + 1) * size] for r in range(size)]


def from_exponent_grid(grid, variant) -> int:
    shifts, size = variant.shifts, variant.size
    return sum(k << shifts[size * r + c] for r, row in enumerate(grid) for c, k in enumerate(row))


def symmetries(board: int, variant) -> set[int]:
    """The board in each of its eight forms, turned and mirrored: a solver's move on one is its
    move on the others, turned and mirrored alike."""
    grid, forms = exponent_grid(board, variant), set()
    for _quarter in range(4):
        grid = [list(row) for row in zip(*grid[::-1], strict=True)]  # a quarter turn clockwise
        forms.update(from_exponent_grid(form, variant) for form in (grid, [row[::-1] for row in grid]))
    return forms


def empty_cells(board: int, variant) -> list[tuple[int, int]]:
    size = variant.size
    return [divmod(i, size) for i, k in enumerate(exponents(board, variant)) if not k]


def max_tile(board: int, variant) -> int:
    """Largest tile value on the board (0 for an empty board)."""
    return value_of(max(exponents(board, variant)))
