"""Your own search loop into a video: a recursive N-Queens backtracker, like the seeds'.

No domain class, no scene file: the search is a plain recursive function, and every state it
looks at goes to a :class:`searchvid.VideoWriter` with a caption saying what the step did,
the strip's ``queens`` field, and its place in the search tree (``id`` and ``parent``), which
the writer draws beside the board. ``duration`` fits the whole search into about 20 seconds.

    python examples/own_loop.py [OUT]      # default: ./renders/queens.mp4 (.gif works too)
"""

from __future__ import annotations

import sys
from collections.abc import Generator
from pathlib import Path

import searchvid

N = 6
EMPTY, QUEEN, ATTACKED = 0, 1, 2

Board = tuple[int, ...]
"""``board[row]`` is the column of the queen in that row; rows below are still empty."""


def safe(board: Board, column: int) -> bool:
    """Whether a queen in the next row, at ``column``, is attacked by none on the board."""
    row = len(board)
    return all(c != column and abs(c - column) != row - r for r, c in enumerate(board))


def solve(board: Board = ()) -> Generator[tuple[Board, str], None, bool]:
    """Backtracking, recursively: yields every board it looks at, with what the step did;
    returns whether it solved.

    Like the seeds' observer, it shows a board on the way down and again on every return.
    """
    row = len(board)
    if row == N:
        yield board, f"all {N} queens placed: solved"
        return True
    yield board, f"queen on row {row}, column {board[-1] + 1}" if row else "the empty board"
    for column in range(N):
        if safe(board, column):
            if (yield from solve((*board, column))):
                return True
            yield board, f"dead end below: take the queen off row {row + 1}, column {column + 1}"
    return False


def cells(board: Board) -> list[list[int]]:
    """The picture of a board: queens, the cells they attack, and free cells."""
    grid = [[EMPTY] * N for _ in range(N)]
    for row in range(N):
        for column in range(N):
            if any(c == column or abs(c - column) == abs(r - row) for r, c in enumerate(board)):
                grid[row][column] = ATTACKED
    for row, column in enumerate(board):
        grid[row][column] = QUEEN
    return grid


def main(out: Path) -> None:
    """Solve N-Queens and film it, in about 20 seconds at most; print the result."""
    view = searchvid.GridView(
        (N, N),
        colors={EMPTY: "#f4efe1", QUEEN: "#1f3b73", ATTACKED: "#d9c9a3"},
        labels={QUEEN: "Q"},
        cells=cells,
    )
    title = f"{N} queens: recursive backtracking"
    with searchvid.VideoWriter(
        out,
        view,
        fps=8,
        tile_size=80,
        title=title,
        algorithm="backtracking",
        duration=20,
        tree=True,
    ) as video:
        for board, caption in solve():
            video.observe(
                board,
                depth=len(board),
                caption=caption,
                status={"queens": searchvid.Field("queens", len(board), of=N)},
                parent=board[:-1] if board else None,  # a board's id is the board itself
            )
    print(video.result)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("renders") / "queens.mp4"
    target.parent.mkdir(parents=True, exist_ok=True)
    main(target)
