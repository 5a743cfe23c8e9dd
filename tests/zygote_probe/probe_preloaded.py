"""A module a host imports with the probe server before it forks a standby (tests/standby_host.py):
it records which process imported it, so the forked server can say it was not itself."""

import os

IMPORTED_BY = os.getpid()
