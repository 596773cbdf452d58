#!/usr/bin/env python3
"""Fails when a C or C++ function in the given trees is longer than a limit.

    scripts/check-funcs.py [--max N] DIR...

Counts the lines from a function's opening brace line to its closing brace
line (the header lines above the brace are not counted), for every .c, .h
and .cpp file below each DIR. Prints one line per function over the limit
(file:line name length) and exits 1 if there is any; 2 on bad arguments.
"""
import os
import re
import sys


def strip(src):
    """The text with comments, strings and character literals blanked
    (newlines kept, so line numbers hold)."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", src[i + 1:j]) + c)
            i = j + 1
        elif c == "#" and (i == 0 or src[i - 1] == "\n"):
            j = i
            while True:  # a preprocessor line, with its continuations
                k = src.find("\n", j)
                if k < 0:
                    k = n
                    break
                if k > 0 and src[k - 1] == "\\":
                    j = k + 1
                    continue
                break
            out.append(re.sub(r"[^\n]", " ", src[i:k]))
            i = k
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    src = strip(open(path, encoding="utf-8", errors="replace").read())
    depth, head, start, name = 0, "", None, None
    line = 1
    for c in src:
        if c == "\n":
            line += 1
        if c == "{":
            if depth == 0:
                h = head.strip()
                m = re.search(r"([A-Za-z_]\w*)\s*\([^()]*(\([^()]*\)[^()]*)*\)\s*(const\s*)?$", h)
                if m and "=" not in h and not re.match(r"(extern|namespace)\b", h):
                    start, name = line, m.group(1)
                else:
                    start = None
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if start is not None:
                    yield start, name, line - start + 1
                start, head = None, ""
        elif depth == 0:
            if c == ";":
                head = ""
            else:
                head += c


def main(argv):
    limit, dirs = 200, []
    it = iter(argv)
    for a in it:
        if a == "--max":
            v = next(it, None)
            if v is None or not v.isdigit() or int(v) == 0:
                print(f"check-funcs: --max: '{v}' is not a positive integer", file=sys.stderr)
                return 2
            limit = int(v)
        elif os.path.isdir(a):
            dirs.append(a)
        else:
            print(f"check-funcs: '{a}' is not a directory", file=sys.stderr)
            return 2
    bad = 0
    for d in dirs:
        for root, _, files in sorted(os.walk(d)):
            for f in sorted(files):
                if not f.endswith((".c", ".h", ".cpp")):
                    continue
                p = os.path.join(root, f)
                for start, name, n in functions(p):
                    if n > limit:
                        print(f"{p}:{start} {name} {n} lines (limit {limit})")
                        bad += 1
    if bad:
        print(f"check-funcs: {bad} function(s) over {limit} lines")
        return 1
    print(f"check-funcs: no function over {limit} lines in {' '.join(dirs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
