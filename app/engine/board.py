"""Bit packing of a 4x4 board into one Python int.

Cell (r, c) holds an exponent in 5 bits at bit 5 * (4 * r + c): 0 is empty and
k is the tile 2**k. Five bits are needed because the tile ladder reaches
2**17 = 131072, which four bits cannot hold. A whole row is then 20 bits: the
lookup tables give a row's 20 bits after a slide (see tables).
"""

SIZE = 4
CELL_BITS = 5
CELL_MASK = (1 << CELL_BITS) - 1
ROW_BITS = CELL_BITS * SIZE
MAX_EXPONENT = 17
MAX_TILE = 1 << MAX_EXPONENT


EXPONENT_BY_VALUE = {0: 0} | {1 << k: k for k in range(1, MAX_EXPONENT + 1)}


def exponent_of(value: int) -> int:
    """Exponent stored for a tile value; raises ValueError for non-tiles."""
    try:
        return EXPONENT_BY_VALUE[value]
    except (KeyError, TypeError):
        raise ValueError(f"{value!r} is not a tile value") from None


def value_of(exponent: int) -> int:
    return 1 << exponent if exponent else 0


# Every exponent five bits hold, as its tile: unpack's table, derived from value_of.
VALUES = tuple(value_of(exponent) for exponent in range(CELL_MASK + 1))


def line_bits(line) -> int:
    """Pack four exponents into 20 bits, index 0 lowest: a row of the board."""
    a, b, c, d = line
    return a | b << CELL_BITS | c << 2 * CELL_BITS | d << 3 * CELL_BITS


CELL_SHIFTS = tuple(CELL_BITS * i for i in range(SIZE * SIZE))


def exponents(board: int) -> list[int]:
    """All 16 exponents in row-major order: one pass, for code that looks at every cell."""
    return [board >> shift & CELL_MASK for shift in CELL_SHIFTS]


def pack(grid) -> int:
    """Board from a 4x4 list of tile values (0 = empty)."""
    return sum(
        exponent_of(grid[r][c]) << (CELL_BITS * (SIZE * r + c))
        for r in range(SIZE)
        for c in range(SIZE)
    )


def unpack(board: int) -> list[list[int]]:
    """4x4 list of tile values (0 = empty)."""
    values = [VALUES[k] for k in exponents(board)]
    return [values[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]


def exponent_grid(board: int) -> list[list[int]]:
    flat = exponents(board)
    return [flat[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]


def from_exponent_grid(grid) -> int:
    return sum(k << CELL_BITS * (SIZE * r + c) for r, row in enumerate(grid) for c, k in enumerate(row))


def symmetries(board: int) -> set[int]:
    """The board in each of its eight forms, turned and mirrored: a solver's move on one is its
    move on the others, turned and mirrored alike."""
    grid, forms = exponent_grid(board), set()
    for _quarter in range(4):
        grid = [list(row) for row in zip(*grid[::-1], strict=True)]  # a quarter turn clockwise
        forms.update(from_exponent_grid(form) for form in (grid, [row[::-1] for row in grid]))
    return forms


def empty_cells(board: int) -> list[tuple[int, int]]:
    return [divmod(i, SIZE) for i, k in enumerate(exponents(board)) if not k]


def max_tile(board: int) -> int:
    """Largest tile value on the board (0 for an empty board)."""
    return value_of(max(exponents(board)))
