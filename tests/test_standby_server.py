"""A server forked from its own host (modules/clients/zygote.py's ``standby_from_this_process``,
servers/zygote.py's ``standby_server``; issue 47): a one-shot run's web-search server.

The host forks before it starts a thread, the child waits, and the host's first start of that
module is the child, given the start's arguments, environment and folder then. It must be what a
spawned server is to its host: its own environment, folder, arguments, session, signals and
descriptors; an exit status; and its command line in /proc (``ps``, ``pgrep -f``) is the
server's, not the host's. A standby never started leaves with its host's end of the socket.

Each case runs in a fresh interpreter (tests/standby_host.py), since the host must have no
other thread when it forks, which a pytest process does not promise.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from fixtures.processes import web_search_servers

HOST = Path(__file__).parent / "standby_host.py"
PROBE = Path(__file__).parent / "zygote_probe"


def _host(case: str, tmp_path: Path, cache_root: Path | None = None) -> dict:
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": os.pathsep.join([str(PROBE), os.environ.get("PYTHONPATH", "")])}
    if cache_root is not None:  # not an argument: the host's own command line stays short
        env["PROBE_CACHE_ROOT"] = str(cache_root)
    done = subprocess.run([sys.executable, str(HOST), case, str(tmp_path)], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_the_first_start_is_the_standby_with_that_start_s_environment_folder_arguments_and_exit_status(tmp_path):
    said = _host("start", tmp_path)
    probe = said["probe"]
    assert said["forked"] and said["pid"] == probe["pid"] and said["parent_of_server"] == said["host_pid"]
    assert probe["env"] == {"ONLY_THIS_SERVER": "yes", "PATH": os.environ.get("PATH", "")}
    assert probe["cwd"] == str(tmp_path) and probe["argv"] == ["7", "more"] and probe["sys_argv"] == ["7", "more"]
    # Its own session and process group, one thread, Ctrl-C as Python's default; stdin, stdout,
    # stderr and the one descriptor that listed them: nothing of the host's.
    assert probe["pid"] == probe["pgid"] == probe["sid"] and probe["threads"] == 1
    assert probe["sigint_raises"] and probe["sigchld_default"] and probe["descriptors"] == [0, 1, 2, 3]
    assert said["stderr"] == "probe on stderr" and said["echo"] == "echo hello" and said["returncode"] == 7
    # /proc shows the server's command line, each argument its own where the host's left room,
    # and nothing of the host's start-up environment.
    assert [part for part in said["cmdline"] if part] == [sys.executable, "-P", "-m", "probe_server", "7", "more"]
    assert said["environ_shows_host_variables"] is False


def test_the_modules_named_to_preload_are_imported_by_the_host_before_the_fork_not_by_the_server(tmp_path):
    # What the web-search server imports at its start (its engines and fetcher: PRELOADED) is imported
    # once for both, so the pages are shared (issue 47: about 3 MiB of the one-shot run's tree).
    said = _host("preload", tmp_path)
    assert said["forked"] and said["returncode"] == 0
    assert said["probe"]["preloaded_by"] == said["host_pid"] != said["pid"]
    # Without it the probe server has nothing of that module.
    assert _host("start", tmp_path)["probe"]["preloaded_by"] is None
    # A one-shot run's web-search standby preloads what its zygote preloads; another module nothing.
    said = _host("default-preload", tmp_path)
    assert said["forked"] == [False, False]
    assert said["asked"] == {said["web"]: said["preloaded"], "probe_server": []} and said["preloaded"]


def test_a_command_line_longer_than_the_host_s_shows_whole_and_the_process_finder_sees_it(tmp_path):
    cache_root = tmp_path / ("a-long-sessions-folder-" + "x" * 120)
    cache_root.mkdir()
    said = _host("long-title", tmp_path, cache_root)
    # One title, past the host's own arguments (over its start-up environment, as setproctitle does).
    assert said["cmdline"] == [" ".join([sys.executable, "-P", "-m", "probe_server", "0", "--cache-root", str(cache_root)])]
    assert said["found_by_fixture"] == [said["pid"]]
    assert said["environ_shows_host_variables"] is False


def test_a_standby_never_started_leaves_and_a_host_with_a_thread_forks_none(tmp_path):
    said = _host("discard", tmp_path)
    assert said["forked"] and said["gone_after_discard"]
    assert said["forked_with_a_thread"] is False
    # Its host gone before it was started: it leaves as well.
    standby = _host("host-exits", tmp_path)["standby"]
    deadline = time.monotonic() + 20
    while Path(f"/proc/{standby}").exists() and b"Z" not in Path(f"/proc/{standby}/stat").read_bytes().rsplit(b")", 1)[1][:3]:
        assert time.monotonic() < deadline, "the standby outlived its host"
        time.sleep(0.05)


def test_a_long_lived_host_s_standby_leaves_when_no_start_takes_it_in_time(tmp_path):
    # A team worker or the research MCP server may wait hours for its first run: the standby it
    # forked leaves after a kept pair's idle time (here 0.3 s), and one started in time is kept.
    said = _host("expires", tmp_path)
    assert said["forked"] and said["there_before"] and said["gone_after"]
    assert _host("taken-in-time", tmp_path)["alive_after_the_time"] is True


def test_the_process_finder_reads_a_spawned_server_s_arguments_as_before(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    server = subprocess.Popen([sys.executable, "-c", "import sys, time; time.sleep(60)", "research.servers.web.server",
                               "--cache-root", str(folder)])
    try:
        # Until the child has exec'd, its /proc cmdline is still this interpreter's (the test ran
        # the finder in that gap about once in 20 runs of the quick loop): wait for the exec only.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and b"research.servers.web.server" not in \
                Path(f"/proc/{server.pid}/cmdline").read_bytes():
            time.sleep(0.01)
        assert web_search_servers(folder, parent=os.getpid()) == [server.pid]
    finally:
        server.kill()
        server.wait()
