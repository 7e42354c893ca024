"""``python -m searchvid`` runs the command-line interface."""

from searchvid.cli import main

if __name__ == "__main__":
    main()
