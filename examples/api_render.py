"""Render scenes from Python: a shipped scene by name, and a scene built in code.

Run it from anywhere once searchvid is installed::

    python examples/api_render.py [OUT_FOLDER]     # default: ./renders
"""

from __future__ import annotations

import sys
from pathlib import Path

import searchvid


def main(out: Path) -> None:
    """Render two scenes and a preview into ``out``; print what was written."""
    # A scene that ships with searchvid, by its bare name, cut to 120 frames.
    scene = searchvid.load_scene("railroad-random").with_overrides(frames=120, seed=3)
    result = scene.render(out / "railroad-random-short.mp4")
    print(result)  # "120 frames in 1.2 s -> .../railroad-random-short.mp4"

    # The same search without drawing: the statistics of `searchvid run --json`.
    stats = scene.run()
    print(f"{stats['events']} events, best {stats['best']}")

    # A scene built in code gets exactly the validation of a TOML file.
    table = {
        "title": "Tic-tac-toe: alpha-beta from a midgame position",
        "domain": {"name": "tictactoe", "position": "X.O/.X./..O"},
        "search": {"algorithm": "minimax"},
        "video": {"fps": 4, "tile_size": 60, "hold_last": 1.0},
    }
    game = searchvid.scene_from_dict(table, name="tictactoe-midgame")
    print(game.render(out / "tictactoe-midgame.gif"))

    # One frame as a picture, identical to that frame of the video: the last one.
    game.preview(-1).save(out / "tictactoe-midgame-last.png")
    print(f"last frame -> {out / 'tictactoe-midgame-last.png'}")

    # Mistakes are reported like a scene file's: NAME: KEY: what is wrong.
    try:
        searchvid.scene_from_dict({**table, "video": {"fps": 0}}, name="broken")
    except searchvid.SceneError as error:
        print(f"refused: {error}")


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("renders")
    folder.mkdir(parents=True, exist_ok=True)
    main(folder)
