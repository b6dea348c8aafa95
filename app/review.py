"""The solver's review of a record: at each position, its move and what the played move lost.

A review runs on demand, one range of positions per request, each position within the
solver's time budget, so a request is bounded however long the game; results are kept
in the database, so no position of a game is analysed twice. Where a costly move breaks
one of the strategy page's four pieces of advice, the review names it.
"""

import heapq
import math
import sys

from flask import current_app
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from . import assistance, hints
from .database import Record, Review, db
from .engine import DIRECTIONS, kernel_for
from .engine.board import exponent_grid, exponents
from .engine.history import Directions, positions
from .solver import Weights

# What the solver's search makes of a board with no move left: its evaluation's "loss", below zero.
LOST = -Weights().loss
# A move rated by how much closer to a lost game it took the player (share_lost): at most this much, this word.
RATINGS = [(0.0, "best"), (0.01, "good"), (0.05, "inaccuracy"), (0.2, "mistake"), (1.0, "blunder")]
# The strategy page's four mistakes (the ids of its list items), checked in this order.
CORNER, TRAPPED, MERGES, FULL = "directions", "trapped", "merges", "full"
MISTAKES = (CORNER, TRAPPED, MERGES, FULL)
FLOAT_MAX = sys.float_info.max
NEARLY_FULL = 3  # empty cells: "two or three left"
TRAPPED_GAP = 3  # a tile is trapped among neighbours at least 2**3 times its size


def directions_of(record: Record) -> Directions:
    return Directions.from_bytes(record.directions, record.direction_count, record.variant)


def finite_number(value) -> bool:
    """A number JSON and every database can hold: no bool, NaN, infinity or int past a float's range."""
    try:
        return type(value) in (int, float) and math.isfinite(value)
    except OverflowError:
        return False


def fault(best, loss, scores, mistake) -> str | None:
    """What is wrong with a review's fields, or None: the solver's score by direction (finite numbers),
    its best move among them, a finite loss of 0 or more, and one of the four mistakes or none. A
    backup's review is refused for it, and one the database holds anyway is analysed again."""
    if not (isinstance(scores, dict) and set(scores) <= set(DIRECTIONS) and isinstance(best, str) and best in scores):
        return "has no scores by direction including its best"
    if not all(finite_number(score) for score in scores.values()):
        return "has a score that is not a finite number"
    if not (finite_number(loss) and loss >= 0) or mistake not in (None, *MISTAKES):
        return "has no loss of 0 or more, or an unknown mistake"
    return None


def sound(review: Review) -> bool:
    return fault(review.best, review.loss, review.scores, review.mistake) is None


def review_range(record: Record, first: int, played: list[str]) -> list[Review]:
    """The reviews of positions ``first`` to ``first + REVIEW_RANGE - 1``, analysing those not kept yet.

    ``played`` is the record's directions, decoded once by the caller, who shows them too.
    """
    size = int(current_app.config["REVIEW_RANGE"])
    last = min(first + size, record.direction_count)
    kept = {review.position: review for review in stored(record.id, first, last)}
    unsound = [review for review in kept.values() if not sound(review)]
    if unsound:  # held from before reviews were checked (an old backup): analysed again
        for review in unsound:
            db.session.delete(review)
            del kept[review.position]
        db.session.commit()
    missing = [position for position in range(first, last) if position not in kept]
    if missing:
        boards = positions(record.start, played[:last], record.tiles, record.variant)
        budget = float(current_app.config["REVIEW_BUDGET_MS"])
        fresh = []
        try:  # the solver may be busy with someone's hint (429): what is done by then is kept
            for position in missing:
                fresh.append(analyse(record, position, boards[position], played[position], budget))
        finally:
            keep(fresh)
            # The solver's view of a board helps whoever stands on it (a board typed in, played on and saved).
            asked = [boards[review.position] for review in fresh]
            assistance.asked_on(asked, record.variant, besides={record.game_id}, hints=1)
        kept = {review.position: review for review in stored(record.id, first, last)}
    return [kept[position] for position in range(first, last)]


def keep(reviews: list[Review]) -> None:
    db.session.add_all(reviews)
    try:
        db.session.commit()
    except IntegrityError:  # another request kept the same positions first: theirs stand
        db.session.rollback()


def forget_after(record: Record, kept: int) -> None:
    """Drop the reviews of positions from ``kept`` on: the record's game has other moves there now."""
    db.session.execute(delete(Review).where(Review.record_id == record.id, Review.position >= kept))


def stored(record_id: str, first: int, last: int) -> list[Review]:
    query = select(Review).where(Review.record_id == record_id, Review.position >= first, Review.position < last)
    return list(db.session.scalars(query))


def biggest_mistakes(record_id: str, limit: int) -> list[Review]:
    """The costliest sound reviews in the player's measure (share_lost), the earliest first on a tie.
    Ranked here rather than by the database: a review kept from before reviews were checked (an old
    backup) may hold scores that no SQL JSON function reads (NaN), and it is left out (sound), where
    a query ranking by them would fail. A loss past the largest float is infinite, or NaN: not one."""
    query = select(Review).where(Review.record_id == record_id, Review.loss > 0, Review.loss <= FLOAT_MAX)
    costly = (review for review in db.session.scalars(query) if sound(review))
    return heapq.nsmallest(limit, costly, key=lambda r: (-share_lost(r.loss, r.scores[r.best]), r.position))


def next_position(record: Record) -> int | None:
    """Where the review of the whole game goes on: the first position not analysed among the last
    REVIEW_RANGE (games are lost at their end, so the first list of mistakes holds the end game's),
    then the first from the start; None once every position is."""
    done = set(db.session.scalars(select(Review.position).where(Review.record_id == record.id)))
    end = record.direction_count
    last = max(end - int(current_app.config["REVIEW_RANGE"]), 0)
    return next((p for p in (*range(last, end), *range(last)) if p not in done), None)


def analysed(record_id: str) -> int:
    return db.session.query(Review).filter_by(record_id=record_id).count()


def analyse(record: Record, position: int, board: int, played: str, budget_ms: float) -> Review:
    """The best move is the one with the top score, not the hint's move: a search cut short by its
    budget may pick another move than its scores rank first, and the loss must compare like with like."""
    variant = record.variant
    scores = hints.review(board, variant, budget_ms, current_app.instance_path).scores
    best = max(scores, key=scores.__getitem__)
    loss = round(scores[best] - scores[played], 3)  # rounding drops float noise
    mistake = broken_advice(board, played, best, variant) if loss > 0 else None
    return Review(record_id=record.id, position=position, best=best, loss=loss, scores=scores, mistake=mistake)


def broken_advice(board: int, played: str, best: str, variant) -> str | None:
    """Which of the strategy page's four mistakes the played move (not the solver's) makes, if any."""
    move = kernel_for(variant).move
    after, gained = move(board, played)
    best_after, best_gained = move(board, best)
    if (
        largest_in_corner(board, variant)
        and not largest_in_corner(after, variant)
        and largest_in_corner(best_after, variant)
    ):
        return CORNER
    if trapped_tiles(after, variant) > max(trapped_tiles(board, variant), trapped_tiles(best_after, variant)):
        return TRAPPED
    if gained > best_gained:
        return MERGES
    if exponents(board, variant).count(0) <= NEARLY_FULL:
        return FULL
    return None


def largest_in_corner(board: int, variant) -> bool:
    grid = exponent_grid(board, variant)
    largest = max(map(max, grid))
    return largest in (grid[0][0], grid[0][-1], grid[-1][0], grid[-1][-1])


def trapped_tiles(board: int, variant) -> int:
    """Small tiles walled in: every neighbour at least 2**TRAPPED_GAP times larger."""
    grid, size = exponent_grid(board, variant), variant.size
    count = 0
    for r in range(size):
        for c in range(size):
            value = grid[r][c]
            around = [grid[r + dr][c + dc] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                      if 0 <= r + dr < size and 0 <= c + dc < size]  # fmt: skip
            count += bool(value) and all(other >= value + TRAPPED_GAP for other in around)
    return count


def share_lost(loss: float, best_value: float) -> float:
    """How much closer to a lost game the played move took the player: its ``loss`` as a share of the
    way from the best move's expected value down to a lost game's (LOST). 0 for the best move, 1 for a
    move that loses the game whatever tile comes next, within 0..1 whatever the values' sign (they are
    mostly below zero once big tiles are on the board). Where the game is all but lost, the values are
    mostly the chance of losing it times LOST, so the share is about how much likelier the played move
    made losing; early on, when no move can lose yet, every move is within a percent of the best."""
    way = best_value - LOST
    return min(max(loss / way, 0.0), 1.0) if way > 0 else 0.0


def rating(share: float) -> str:
    """A share lost (share_lost) in a player's words (RATINGS)."""
    return next(word for most, word in RATINGS if share <= most)


def to_dict(review: Review, played: str) -> dict:
    """A review as the API shows it, with the direction ``played`` at its position."""
    share = share_lost(review.loss, review.scores[review.best])
    word = rating(share)
    return {
        "position": review.position,
        "played": played,
        "best": review.best,
        "loss": round(review.loss, 3),
        "share_lost": round(share, 4),
        "rating": word,
        "scores": review.scores,
        "mistake": review.mistake,
    }
