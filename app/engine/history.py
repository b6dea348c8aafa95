"""A game's history: the directions of its moves, packed two bits a move, and the tiles it placed.

A game's seed, the state it started from and these directions are enough to replay it
exactly. Packed, a game of 100,000 moves takes 25 kB; as text (one letter
a move, ``u d l r``) it is what the API shows and accepts.

The tiles the game placed, one byte each (a code: the cell, row by row, plus the number of
cells for a 4; 0 to 31 on the classic 4x4), rebuild every position without the seed: a game's
positions can be shown while its seed, which also decides the tiles still to come, stays secret.
As text, a code is written in base 32 (TILE_LETTERS), in one letter where the variant's codes fit
one (3x3 and 4x4) and in two otherwise.

Every move adds at least a 2 to the board's sum, which can never pass cells * max_tile, so
no game, not even one restored at its move count's bound, plays more than the variant's
max_directions valid moves after its start: a game's history is bounded by the rules.
"""

import base64
import binascii

from .board import exponents, pack
from .directions import DIRECTIONS
from .errors import InvalidState
from .kernels import kernel_for

LETTERS = "".join(direction[0] for direction in DIRECTIONS)
CODE = {direction: code for code, direction in enumerate(DIRECTIONS)}
DIRECTION_OF_LETTER = {direction[0]: direction for direction in DIRECTIONS}
PER_BYTE = 4
TILE_LETTERS = b"0123456789abcdefghijklmnopqrstuv"  # a tile code's digits as the API writes it


class Directions:
    """A list of directions, four to a byte, that grows and shrinks at its end."""

    __slots__ = ("count", "packed")

    def __init__(self, packed: bytes = b"", count: int = 0):
        self.packed = bytearray(packed)
        self.count = count

    def append(self, direction: str) -> None:
        slot = self.count % PER_BYTE
        if not slot:
            self.packed.append(0)
        self.packed[-1] |= CODE[direction] << (2 * slot)
        self.count += 1

    def pop(self) -> str:
        """Take the last direction off (a move undone)."""
        if not self.count:
            raise IndexError("no direction to take off")
        self.count -= 1
        index, slot = divmod(self.count, PER_BYTE)
        direction = DIRECTIONS[self.packed[index] >> (2 * slot) & 3]
        if slot:
            self.packed[index] &= (1 << (2 * slot)) - 1
        else:
            del self.packed[index]
        return direction

    def last(self) -> str:
        """The last direction (there must be one)."""
        index, slot = divmod(self.count - 1, PER_BYTE)
        return DIRECTIONS[self.packed[index] >> (2 * slot) & 3]

    def __len__(self) -> int:
        return self.count

    def __iter__(self):
        return map(DIRECTION_OF_LETTER.__getitem__, self.to_letters())

    def __eq__(self, other) -> bool:
        return isinstance(other, Directions) and (self.count, self.packed) == (other.count, other.packed)

    def to_letters(self) -> str:
        return "".join(map(_LETTERS_OF_BYTE.__getitem__, self.packed))[: self.count]

    @classmethod
    def from_letters(cls, letters, variant) -> "Directions":
        limit = variant.max_directions
        if not isinstance(letters, str) or len(letters) > limit or letters.strip(LETTERS):
            raise InvalidState(f"directions must be a string of at most {limit} letters from {LETTERS!r}")
        directions = cls()
        for letter in letters:
            directions.append(DIRECTION_OF_LETTER[letter])
        return directions

    def to_text(self) -> str:
        """Compact text for the session: ``count:base64``."""
        return f"{self.count}:{base64.b64encode(self.packed).decode()}"

    @classmethod
    def from_text(cls, text, variant) -> "Directions":
        try:
            count, encoded = text.split(":")
            packed = base64.b64decode(encoded, validate=True)
            count = int(count)
        except (AttributeError, ValueError, binascii.Error):
            raise InvalidState("directions must be text as Directions.to_text writes it") from None
        return cls.from_bytes(packed, count, variant)

    @classmethod
    def from_bytes(cls, packed: bytes, count: int, variant) -> "Directions":
        if not 0 <= count <= variant.max_directions or len(packed) != -(-count // PER_BYTE):
            raise InvalidState(f"{len(packed)} bytes cannot hold {count} directions")
        return cls(packed, count)


def tile_code(row: int, col: int, value: int, variant) -> int:
    return variant.size * row + col + (variant.cells if value == 4 else 0)


def start_tiles(board: int, variant) -> bytes:
    """The codes of the tiles on a new game's board, cell by cell."""
    cells = variant.cells
    return bytes(cell + cells * (exponent - 1) for cell, exponent in enumerate(exponents(board, variant)) if exponent)


def placed(board: int, code: int, variant) -> int:
    """``board`` with the tile of ``code`` placed on its (empty) cell."""
    cell, exponent = code % variant.cells, 1 + code // variant.cells
    return board | exponent << variant.shifts[cell]


def positions(start: dict | None, directions, tiles: bytes, variant) -> list[int]:
    """The board before each of ``directions`` and after the last, from the ``start`` state (None:
    a new game, whose two start tiles lead ``tiles``) and the tile each move placed: the engine's
    slides and no randomness, so no seed is needed."""
    if start is None:
        board, tiles = placed(placed(0, tiles[0], variant), tiles[1], variant), tiles[2:]
    else:
        board = pack(start["board"], variant)
    boards, move = [board], kernel_for(variant).move
    for direction, code in zip(directions, tiles, strict=False):
        boards.append(placed(move(boards[-1], direction)[0], code, variant))
    return boards


def letters_per_tile(variant) -> int:
    """A tile code's letters in base 32: one while a variant's 2 * cells codes fit, else two."""
    return 1 if 2 * variant.cells <= len(TILE_LETTERS) else 2


def tiles_text(tiles: bytes, variant) -> str:
    """Each tile's code in base 32 (TILE_LETTERS), in letters_per_tile letters."""
    if letters_per_tile(variant) == 1:
        return tiles.translate(_LETTER_OF_CODE).decode("ascii")
    return "".join(_TWO_LETTERS[code] for code in tiles)


def tiles_from_text(text, variant) -> bytes:
    """The tiles ``tiles_text`` wrote (InvalidState for any other text)."""
    letters = text.encode("ascii", "replace") if isinstance(text, str) else None
    width = letters_per_tile(variant)
    if letters is None or letters.strip(TILE_LETTERS) or len(letters) % width:
        raise InvalidState(f"tiles must be a string of letters from {TILE_LETTERS.decode()!r}, {width} a tile")
    digits = letters.translate(_CODE_OF_LETTER)
    codes = (
        digits if width == 1 else bytes(high * 32 + low for high, low in zip(digits[::2], digits[1::2], strict=True))
    )
    if any(code >= 2 * variant.cells for code in codes):
        raise InvalidState(f"a tile code must be below {2 * variant.cells}")
    return codes


# The four letters a packed byte holds, first move first: letters come a byte at a time, not a move.
_LETTERS_OF_BYTE = ["".join(LETTERS[byte >> (2 * slot) & 3] for slot in range(PER_BYTE)) for byte in range(256)]
_LETTER_OF_CODE = bytes.maketrans(bytes(range(len(TILE_LETTERS))), TILE_LETTERS)
_CODE_OF_LETTER = bytes.maketrans(TILE_LETTERS, bytes(range(len(TILE_LETTERS))))
_TWO_LETTERS = [chr(TILE_LETTERS[code // 32]) + chr(TILE_LETTERS[code % 32]) for code in range(256)]
