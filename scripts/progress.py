"""Progress of a long command, for Python scripts: scripts/progress.sh's
line and rules (read there), on standard error:
    progress: D of T WHAT (P %), E s elapsed, about L s left
    p = progress.Progress(total, what)   before the first item
    p.step(done)                         after an item: done of total
    p.end()                              after the last one
On a terminal one updating line, redrawn at most once a second; otherwise a
plain line when PROGRESS_SECONDS (default 30) have passed since the last
one and an item has been done since. PROGRESS_TTY=1 or 0 overrides the
terminal test; `now` (seconds, for tests) replaces the clock; `note`, when
set, is added in parentheses. Run as a script (tests):
    scripts/progress.py TOTAL WHAT T0 DONE@NOW... [end@NOW]
"""

import os
import sys
import time


def line(done, total, what, elapsed, note=""):
    """The line for `done` of `total` after `elapsed` whole seconds."""
    p10 = (2000 * done + total) // (2 * total) if total > 0 else 0
    s = "progress: %d of %d %s (%d.%d %%), %d s elapsed" % (done, total, what, p10 // 10, p10 % 10, elapsed)
    if done > 0:
        s += ", about %d s left" % ((2 * elapsed * (total - done) + done) // (2 * done))
    if note:
        s += " (%s)" % note
    return s


class Progress:
    def __init__(self, total, what, now=None, out=None):
        self.total, self.what, self.note = total, what, ""
        self.out = out or sys.stderr
        every = os.environ.get("PROGRESS_SECONDS", "30")
        if not every.isdigit():
            print("progress: PROGRESS_SECONDS: '%s' is not a number of seconds" % every, file=sys.stderr)
            sys.exit(2)
        self.every = int(every)
        tty = os.environ.get("PROGRESS_TTY", "")
        self.tty = tty == "1" if tty else self.out.isatty()
        self.t0 = self._now(now)
        self.last, self.done, self.shown, self.on = self.t0, 0, False, True

    @staticmethod
    def _now(now):
        return int(time.time()) if now is None else int(now)

    def _show(self, now, end=""):
        text = line(self.done, self.total, self.what, now - self.t0, self.note)
        self.out.write(("\r%s\033[K%s" % (text, end)) if self.tty else text + "\n")
        self.out.flush()

    def step(self, done, now=None):
        if not self.on:
            return
        now = self._now(now)
        if self.tty:
            self.done = done
            if not self.shown or now > self.last:
                self._show(now)
                self.shown, self.last = True, now
        elif done > self.done and now - self.last >= self.every:
            self.done = done
            self._show(now)
            self.last = now

    def end(self, now=None):
        if self.on and self.tty and self.shown:
            self._show(self._now(now), "\n")
        self.on = False


def main(argv):
    total, what, t0 = int(argv[1]), argv[2], int(argv[3])
    p = Progress(total, what, now=t0)
    for a in argv[4:]:
        k, at = a.split("@")
        if k == "end":
            p.end(now=int(at))
        else:
            p.step(int(k), now=int(at))


if __name__ == "__main__":
    main(sys.argv)
