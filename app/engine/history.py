"""A game's history: the directions of its moves, packed two bits a move, and the tiles it placed.

A game's seed, the state it started from and these directions are enough to replay it
exactly. Packed, a game of 100,000 moves takes 25 kB; as text (one letter
a move, ``u d l r``) it is what the API shows and accepts.

The tiles the game placed, one byte each (a code from 0 to 31: the cell, row by row, plus
16 for a 4), rebuild every position without the seed: a game's positions can be shown
while its seed, which also decides the tiles still to come, stays secret.

Every move adds at least a 2 to the board's sum, which can never pass 16 * MAX_TILE, so
no game, not even one restored at its move count's bound, plays more than MAX_DIRECTIONS
valid moves after its start: a game's history is bounded by the rules.
"""

import base64
import binascii

from .board import CELL_BITS, MAX_TILE, SIZE, exponents, pack
from .errors import InvalidState
from .sliding import DIRECTIONS, move

LETTERS = "".join(direction[0] for direction in DIRECTIONS)
CODE = {direction: code for code, direction in enumerate(DIRECTIONS)}
DIRECTION_OF_LETTER = {direction[0]: direction for direction in DIRECTIONS}
MAX_DIRECTIONS = SIZE * SIZE * MAX_TILE // 2
PER_BYTE = 4
CELLS = SIZE * SIZE
TILE_LETTERS = b"0123456789abcdefghijklmnopqrstuv"  # a tile code as the API writes it


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
    def from_letters(cls, letters) -> "Directions":
        if not isinstance(letters, str) or len(letters) > MAX_DIRECTIONS or letters.strip(LETTERS):
            raise InvalidState(f"directions must be a string of at most {MAX_DIRECTIONS} letters from {LETTERS!r}")
        directions = cls()
        for letter in letters:
            directions.append(DIRECTION_OF_LETTER[letter])
        return directions

    def to_text(self) -> str:
        """Compact text for the session: ``count:base64``."""
        return f"{self.count}:{base64.b64encode(self.packed).decode()}"

    @classmethod
    def from_text(cls, text) -> "Directions":
        try:
            count, encoded = text.split(":")
            packed = base64.b64decode(encoded, validate=True)
            count = int(count)
        except (AttributeError, ValueError, binascii.Error):
            raise InvalidState("directions must be text as Directions.to_text writes it") from None
        return cls.from_bytes(packed, count)

    @classmethod
    def from_bytes(cls, packed: bytes, count: int) -> "Directions":
        if not 0 <= count <= MAX_DIRECTIONS or len(packed) != -(-count // PER_BYTE):
            raise InvalidState(f"{len(packed)} bytes cannot hold {count} directions")
        return cls(packed, count)


def tile_code(row: int, col: int, value: int) -> int:
    return SIZE * row + col + (CELLS if value == 4 else 0)


def start_tiles(board: int) -> bytes:
    """The codes of the tiles on a new game's board, cell by cell."""
    return bytes(cell + CELLS * (exponent - 1) for cell, exponent in enumerate(exponents(board)) if exponent)


def placed(board: int, code: int) -> int:
    """``board`` with the tile of ``code`` placed on its (empty) cell."""
    cell, exponent = code % CELLS, 1 + code // CELLS
    return board | exponent << (CELL_BITS * cell)


def positions(start: dict | None, directions, tiles: bytes) -> list[int]:
    """The board before each of ``directions`` and after the last, from the ``start`` state (None:
    a new game, whose two start tiles lead ``tiles``) and the tile each move placed: the engine's
    slides and no randomness, so no seed is needed."""
    if start is None:
        board, tiles = placed(placed(0, tiles[0]), tiles[1]), tiles[2:]
    else:
        board = pack(start["board"])
    boards = [board]
    for direction, code in zip(directions, tiles, strict=False):
        boards.append(placed(move(boards[-1], direction)[0], code))
    return boards


def tiles_text(tiles: bytes) -> str:
    """One character a tile, from TILE_LETTERS."""
    return tiles.translate(_LETTER_OF_CODE).decode("ascii")


def tiles_from_text(text) -> bytes:
    """The tiles ``tiles_text`` wrote (InvalidState for any other text)."""
    letters = text.encode("ascii", "replace") if isinstance(text, str) else None
    if letters is None or letters.strip(TILE_LETTERS):
        raise InvalidState(f"tiles must be a string of letters from {TILE_LETTERS.decode()!r}")
    return letters.translate(_CODE_OF_LETTER)


# The four letters a packed byte holds, first move first: letters come a byte at a time, not a move.
_LETTERS_OF_BYTE = ["".join(LETTERS[byte >> (2 * slot) & 3] for slot in range(PER_BYTE)) for byte in range(256)]
_LETTER_OF_CODE = bytes.maketrans(bytes(range(len(TILE_LETTERS))), TILE_LETTERS)
_CODE_OF_LETTER = bytes.maketrans(TILE_LETTERS, bytes(range(len(TILE_LETTERS))))
