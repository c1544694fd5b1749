"""What ``make lab`` checks and writes before JupyterLab starts: its settings file and a free port.

- :func:`lab_settings`: JupyterLab's ``overrides.json``. Autosave is off and Markdown and MyST files open as
  notebooks (jupytext), so opening and running a chapter changes no file on disk until the reader saves it
  (File > Save As keeps an edited copy elsewhere).
- :func:`lab_port`: the port JupyterLab is to listen on (``LAB_PORT``, or a ``--port`` the reader put in
  ``LAB_ARGS``) and the other arguments, refused in one line when the port is not a number or is taken, where
  JupyterLab would print a page of traceback.

Run ``python -m helpers.book.lab.launch settings`` to print the settings file, and
``python -m helpers.book.lab.launch port 8888 [LAB_ARGS...]`` for the port and the arguments, shell-quoted.
"""

from __future__ import annotations

import errno
import json
import shlex
import socket
import sys
from typing import Any, Sequence

__all__ = ["LabArgsError", "lab_settings", "split_port", "lab_port", "port_taken", "main"]

#: The address ``make lab`` serves JupyterLab on (never another machine's).
LAB_HOST = "127.0.0.1"
#: The spellings of JupyterLab's port option.
_PORT_OPTIONS = ("--port", "--ServerApp.port")


class LabArgsError(ValueError):
    """A port that JupyterLab cannot listen on, said in one line with what to do.

    Attributes
    ----------
    args
        The message, as for any exception.

    Examples
    --------
    >>> print(LabArgsError("LAB_ARGS: give one port"))
    LAB_ARGS: give one port
    """


def lab_settings() -> dict[str, Any]:
    """JupyterLab's ``overrides.json``: chapters open as notebooks, autosave off, nothing fetched.

    Returns
    -------
    dict
        The settings by JupyterLab plug-in.

    Examples
    --------
    >>> lab_settings()["@jupyterlab/docmanager-extension:plugin"]["autosave"]
    False
    """
    return {"@jupyterlab/docmanager-extension:plugin": {
        "autosave": False,
        "defaultViewers": {"markdown": "Jupytext Notebook", "myst": "Jupytext Notebook"}},
        # Every cell of a chapter in the page at once, as the book shows it (and as a search of the page finds it).
        "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
        # No request to the internet: no news feed, no check for a newer JupyterLab.
        "@jupyterlab/apputils-extension:notification": {"checkForUpdates": False, "fetchNews": "false"}}


def port_taken(port: int, host: str = LAB_HOST) -> bool:
    """Whether something already listens on ``host:port``, so JupyterLab could not.

    The port is bound as JupyterLab's server binds it (with ``SO_REUSEADDR``: a port whose last connection is
    still closing is free), then released.

    Parameters
    ----------
    port
        The port number.
    host
        The address JupyterLab listens on.

    Returns
    -------
    bool
        ``True`` when binding the port fails because it is in use.

    Examples
    --------
    >>> server = socket.create_server((LAB_HOST, 0))
    >>> port_taken(server.getsockname()[1])
    True
    >>> server.close()
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return True
            raise
    return False


def _port_number(text: str, where: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise LabArgsError(f"{where}: a port is a whole number from 1 to 65535, got {text!r}")
    return int(text)


def split_port(port: str, lab_args: Sequence[str]) -> tuple[int, list[str]]:
    """The port JupyterLab is to listen on, and its other arguments.

    A ``--port N`` (or ``--port=N``, ``--ServerApp.port=N``) in ``lab_args`` is the port, in place of ``port``
    (``LAB_PORT``); it is taken out of the arguments, which ``make lab`` passes on after its own port option.

    Parameters
    ----------
    port
        ``LAB_PORT``, as the Makefile gives it.
    lab_args
        ``LAB_ARGS``, split into words as the shell splits them.

    Returns
    -------
    tuple of int and list of str
        The port, and ``lab_args`` without its port option.

    Raises
    ------
    LabArgsError
        When a port is not a whole number from 1 to 65535, or ``lab_args`` gives two.

    Examples
    --------
    >>> split_port("8888", ["--no-browser", "--port", "8890"]), split_port("8888", ["--ServerApp.port=8891"])
    ((8890, ['--no-browser']), (8891, []))
    >>> split_port("8888", ["--port=x"])
    Traceback (most recent call last):
    ...
    helpers.book.lab.launch.LabArgsError: LAB_ARGS: a port is a whole number from 1 to 65535, got 'x'
    """
    chosen, where, rest = port, "LAB_PORT", []
    words, given = list(lab_args), 0
    while words:
        word = words.pop(0)
        name, equals, value = word.partition("=")
        if name not in _PORT_OPTIONS:
            rest.append(word)
            continue
        if not equals:
            if not words:
                raise LabArgsError(f"LAB_ARGS: {name} needs a port number")
            value = words.pop(0)
        given += 1
        if given > 1:
            raise LabArgsError("LAB_ARGS: give one port (or choose it with make lab LAB_PORT=N)")
        chosen, where = value, "LAB_ARGS"
    return _port_number(chosen, where), rest


def lab_port(port: str, lab_args: Sequence[str], *, host: str = LAB_HOST) -> tuple[int, list[str]]:
    """:func:`split_port`, refused when nothing can listen on the port because something already does.

    Parameters
    ----------
    port, lab_args
        ``LAB_PORT`` and ``LAB_ARGS``, as :func:`split_port` reads them.
    host
        The address JupyterLab is to listen on.

    Returns
    -------
    tuple of int and list of str
        What :func:`split_port` gives, once the port is known to be free.

    Raises
    ------
    LabArgsError
        As :func:`split_port`, and when the port is taken (:func:`port_taken`).

    Examples
    --------
    >>> server = socket.create_server((LAB_HOST, 0))
    >>> lab_port(str(server.getsockname()[1]), ["--no-browser"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    helpers.book.lab.launch.LabArgsError: port ... on 127.0.0.1 is taken (is JupyterLab already running?): ...
    >>> server.close()
    """
    number, rest = split_port(port, lab_args)
    if port_taken(number, host):
        raise LabArgsError(f"port {number} on {host} is taken (is JupyterLab already running?): "
                           f"choose another with make lab LAB_PORT={number + 1 if number < 65535 else 8890}")
    return number, rest


def main(argv: Sequence[str] | None = None) -> int:
    """``settings``: print :func:`lab_settings` as JSON; ``port PORT [LAB_ARGS...]``: print :func:`lab_port`'s port
    and arguments, shell-quoted, or its error in one line (exit 2).

    Parameters
    ----------
    argv
        The command's arguments (default ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit code.

    Examples
    --------
    >>> main(["settings"])  # doctest: +ELLIPSIS
    {
      "@jupyterlab/docmanager-extension:plugin": {
        "autosave": false,
    ...
    0
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["settings"]:
        print(json.dumps(lab_settings(), indent=2))
        return 0
    if len(argv) >= 2 and argv[0] == "port":
        try:
            port, rest = lab_port(argv[1], argv[2:])
        except LabArgsError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        print(shlex.join([str(port), *rest]))
        return 0
    print("usage: python -m helpers.book.lab.launch settings | port PORT [LAB_ARGS...]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
