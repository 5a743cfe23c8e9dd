"""`research serve` refuses a sessions folder on a network filesystem whose locks stay on
each host (the one-writer-per-session lock would then protect nothing across hosts)."""

from __future__ import annotations

import subprocess

from conftest import RESEARCH

from research.cli.serve_command import sessions_folder_problem
from research.modules.core.i18n import t

MOUNTS = """\
/dev/sda1 / ext4 rw,relatime 0 0
nas:/export/research /srv/research nfs4 rw,relatime,vers=4.2,hard,proto=tcp,local_lock=none 0 0
nas:/export/old /srv/old nfs rw,relatime,vers=3,nolock,proto=tcp 0 0
nas:/export/flock /srv/flock nfs4 rw,vers=4.1,local_lock=flock 0 0
//smb/share /srv/smb cifs rw,nobrl 0 0
me@host:/x /srv/sshfs fuse.sshfs rw,nosuid 0 0
"""


def test_only_a_network_folder_with_host_local_locks_is_refused() -> None:
    assert sessions_folder_problem("/home/alice/sessions", MOUNTS) is None  # one host: its own locks hold
    assert sessions_folder_problem("/srv/research/sessions", MOUNTS) is None  # NFSv4, server-side locks
    assert sessions_folder_problem("/srv/old/sessions", MOUNTS) == ("nfs", "nolock")
    assert sessions_folder_problem("/srv/flock", MOUNTS) == ("nfs4", "local_lock=flock")
    assert sessions_folder_problem("/srv/smb/s", MOUNTS) == ("cifs", "nobrl")
    assert sessions_folder_problem("/srv/sshfs/s", MOUNTS) == ("fuse.sshfs", "no locks across hosts")
    assert sessions_folder_problem("/srv/oldies", MOUNTS) is None  # a prefix of a name is not its folder


def test_the_refusal_is_one_line_in_either_language() -> None:
    for lang in ("en", "ja"):
        said = t("serve.sessions_folder_unlocked", lang, path="/srv/old/s", fstype="nfs", option="nolock")
        assert "\n" not in said and "/srv/old/s" in said and "nolock" in said


def test_research_serve_starts_on_this_machines_folder(research_env) -> None:
    # The check reads this machine's real mounts: the test folder (a local disk) passes it,
    # and what stops `research serve` here is the missing database, said in one line.
    result = subprocess.run([RESEARCH, "serve", "worker"], env=research_env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "RESEARCH_DATABASE_URL" in result.stderr
