"""make lab: the port is LAB_PORT or a --port in LAB_ARGS, and a taken or malformed port is one line of error."""

import json
import re
import socket

import pytest

from tests.support import ROOT
from helpers.book.lab.launch import LabArgsError, lab_port, main, port_taken, split_port


@pytest.fixture
def listening():
    """A server listening on a port of 127.0.0.1, as another JupyterLab would."""
    server = socket.create_server(("127.0.0.1", 0))
    yield server.getsockname()[1]
    server.close()


def test_a_port_someone_listens_on_is_taken_and_free_once_closed():
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    assert port_taken(port)
    server.close()
    assert not port_taken(port)


def test_a_taken_port_is_one_line_and_exit_2(listening, capsys):
    with pytest.raises(LabArgsError, match=rf"^port {listening} on 127\.0\.0\.1 is taken "):
        lab_port(str(listening), [])
    assert main(["port", "8888", "--no-browser", f"--port={listening}"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"error: port {listening} on 127.0.0.1 is taken (is JupyterLab already running?): "
                            f"choose another with make lab LAB_PORT={listening + 1}\n")


def test_a_port_in_lab_args_is_the_port_and_leaves_the_other_arguments():
    assert split_port("8888", []) == (8888, [])
    assert split_port("8888", ["--no-browser", "--port", "8890"]) == (8890, ["--no-browser"])
    assert split_port("8888", ["--ServerApp.port=8891", "--foo=a b"]) == (8891, ["--foo=a b"])
    for lab_args, message in ((["--port", "1", "--port=2"], "LAB_ARGS: give one port"),
                              (["--port"], "LAB_ARGS: --port needs a port number"),
                              (["--port", "99999"], "LAB_ARGS: a port is a whole number from 1 to 65535, got '99999'")):
        with pytest.raises(LabArgsError, match=re.escape(message)):
            split_port("8888", lab_args)
    with pytest.raises(LabArgsError, match="LAB_PORT: a port is a whole number"):
        split_port("eighty", [])


def test_a_free_port_and_the_arguments_are_printed_for_the_shell(capsys):
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    server.close()
    assert main(["port", "8888", "--no-browser", "--port", str(port), "--foo=a b"]) == 0
    assert capsys.readouterr().out == f"{port} --no-browser '--foo=a b'\n"
    assert main(["settings"]) == 0
    assert json.loads(capsys.readouterr().out)["@jupyterlab/docmanager-extension:plugin"]["autosave"] is False


def test_make_lab_checks_the_port_before_jupyterlab_starts_and_passes_the_rest():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nlab: lab-deps\n", 1)[1].split("\n\n", 1)[0]
    assert 'helpers.book.lab.launch port "$(LAB_PORT)" $(LAB_ARGS)' in recipe
    assert "--ServerApp.port=$$port" in recipe and recipe.rstrip().endswith('"$$@"')
    assert "$(LAB_ARGS)" not in recipe.split("launch port", 1)[1].split("\n", 1)[1]  # passed on only once
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make lab LAB_PORT=8890" in readme
