"""The four directions a board slides in, in the order the API, the history and the solver number them."""

DIRECTIONS = ("up", "down", "left", "right")
