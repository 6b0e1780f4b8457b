"""Running a runner program line by line, so that a mutant's run stops at
the first check it fails (the contract and regression runners flush each
record), under a deadline: a mutant that makes the code hang costs the
deadline, not every check's own timeout."""
import os
import signal
import subprocess
import tempfile
import threading


class Outcome:
    """How a streamed run ended: status (the exit status, None when it was
    stopped), stopped (the caller asked), expired (the deadline passed) and
    the last line of its stderr."""

    def __init__(self, status, stopped, expired, stderr_tail):
        self.status, self.stopped, self.expired = status, stopped, expired
        self.stderr_tail = stderr_tail


def _kill(proc):
    """End the program and the children it forked (its own process group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_lines(argv, env, on_line, deadline, stdin_text=None):
    """Run argv (in a new session); on_line(line) for each line of its
    stdout, in order; a true return stops the program at once. deadline:
    seconds for the whole run."""
    expired = []
    with tempfile.TemporaryFile("w+", errors="replace") as err:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin_text is not None
                                else subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err,
                                env=env, universal_newlines=True, errors="replace",
                                start_new_session=True)

        def expire():
            expired.append(True)
            _kill(proc)

        timer = threading.Timer(deadline, expire)
        timer.daemon = True
        timer.start()
        writer = None
        if stdin_text is not None:
            def write():
                try:
                    proc.stdin.write(stdin_text)
                    proc.stdin.close()
                except (BrokenPipeError, OSError):
                    pass
            writer = threading.Thread(target=write, daemon=True)
            writer.start()
        stopped = False
        try:
            for line in proc.stdout:
                if on_line(line.rstrip("\n")):
                    stopped = True
                    break
        except BaseException:
            _kill(proc)
            raise
        finally:
            timer.cancel()
            if stopped or expired:
                _kill(proc)
            proc.stdout.close()
            status = proc.wait()
            if writer:
                writer.join(5)
        err.seek(0)
        lines = [l.strip() for l in err.read().splitlines() if l.strip()]
    return Outcome(None if stopped or expired else status, stopped, bool(expired),
                   lines[-1] if lines else "")
