"""``python -m searchvid`` runs the command-line interface."""

from searchvid._launch import main

if __name__ == "__main__":
    main()
