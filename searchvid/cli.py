"""Placeholder until the CLI lands (issue 5)."""

import click

from searchvid import __version__


@click.group()
@click.version_option(__version__, prog_name="searchvid")
def main() -> None:
    """searchvid: turn tree searches into videos."""
