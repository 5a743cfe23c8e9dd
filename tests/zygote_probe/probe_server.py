"""A server module for tests/test_zygote.py's zygotes: one line saying what the forked process
was given, a line on stderr, then each stdin line echoed until stdin closes; exits with the
status its first argument names."""

import json
import os
import signal
import sys
import threading


def main(argv):
    print("probe on stderr", file=sys.stderr, flush=True)
    print(json.dumps({
        "argv": argv, "sys_argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ), "pid": os.getpid(),
        "pgid": os.getpgid(0), "sid": os.getsid(0), "threads": threading.active_count(),
        "sigint_raises": signal.getsignal(signal.SIGINT) is signal.default_int_handler,
        "sigchld_default": signal.getsignal(signal.SIGCHLD) == signal.SIG_DFL,
        "descriptors": sorted(int(name) for name in os.listdir("/proc/self/fd")),
        # Set when a host imported tests/zygote_probe/probe_preloaded.py: the pid that imported it.
        "preloaded_by": getattr(sys.modules.get("probe_preloaded"), "IMPORTED_BY", None),
    }), flush=True)
    for line in sys.stdin:
        print("echo " + line.strip(), flush=True)
    return int(argv[0]) if argv else 0
