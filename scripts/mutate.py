#!/usr/bin/env python3
"""Mutation testing of the generated RTL (docs/mutation.md).

Mutates the Verilog text of a unit's committed configuration
(rtl/<family>/<prefix>_<config>.sv), never the generator: one small edit per
mutant, built into a one-configuration lockstep bench through
scripts/unit-bench.sh and run against the golden model. A mismatch kills the
mutant; a mutant that passes every run survived; one that Verilator or the
C++ compiler rejects is invalid. Survivors listed in tb/mutants-equivalent.txt
are equivalent and leave the score.

  scripts/mutate.py --all [--unit U,...] [--count N]  every committed configuration
  scripts/mutate.py --unit U --config C [--count N]    one configuration
  scripts/mutate.py --unit U --config C --only ID      one mutant (the reproduce command)
  scripts/mutate.py --unit U --config C --list         candidates (or --count of them)
  scripts/mutate.py --unit U --config C --apply ID --out DIR   write the mutated files
  scripts/mutate.py --file F.sv --list | --apply ID --out DIR  any generated file
  scripts/mutate.py --print-schedule [--unit U,...]      the bench runs of each unit

With SCHED set (local or slurm; docs/cluster.md), a run of many mutants is a
task list run by scripts/jobs.sh: one task per batch of --batch mutants of a
configuration (the first batch also builds and runs the unmutated bench),
each `scripts/mutate.py --unit U --config C ... --part K/N`, which leaves its
results in OUT/parts/; they are then gathered into the same report.

Exit status: 0 every configuration at or above the target and every survivor
listed as equivalent; 1 otherwise (or the unmutated bench fails); 2 bad input.
"""

import argparse
import bisect
import concurrent.futures
import hashlib
import itertools
import json
import os
import re
import shutil
import shlex
import signal
import subprocess
import sys
import time

import progress

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Operators, in the order a round of the stratified selection visits them.
OPS = ("swap", "cond", "term", "const", "hold", "drop", "bitsel", "stuck", "unary")
OP_HELP = {
    "swap": "binary operator swapped: & |, && ||, == !=, < <=, > >=, + -; reduction & |",
    "cond": "if or ternary condition inverted: c -> !(c)",
    "term": "one operand of & | ^ && || kept (the other dropped); ternary collapsed to one branch",
    "const": "constant off by one (+1, or -1 at the top of its width; 1-bit flipped; loop bound -1)",
    "hold": "register next value held: x_d = x_q in place of a next-state assignment; x_q <= x_q",
    "drop": "assignment dropped in always_comb (after its default: stays latch-free)",
    "bitsel": "bit-select or part-select shifted by one where the result stays in range",
    "stuck": "output port or one-bit net stuck at 0 or 1 (expression kept in an unused_ net)",
    "unary": "negation ~ or ! dropped",
}

# The runs of a unit's bench a mutant goes through, in order, each a
# (stream, seed, cycles, extra bench flags) with stream None = the bench's
# default and {"home": "2"} -> --home 2; a mutant is killed by the first
# mismatch. A unit's own schedule is tb/<family>/<unit>_mutate.txt (one run a
# line, as --runs writes it); otherwise DEFAULT_RUNS runs of DEFAULT_CYCLES
# cycles, seeds 1, 2, ..., over the unit's streams in turn (cohmodel
# --list=streams, the registry's; its default first).
DEFAULT_RUNS = 4
DEFAULT_CYCLES = 200000
RUN_SYNTAX = "stream:seed:cycles[:flag=value+...]"


class BadInput(Exception):
    """One-line error; exit status 2."""


# --------------------------------------------------------------------------
# Tokenizer

class Tok:
    __slots__ = ("kind", "text", "start", "end", "line", "col")

    def __init__(self, kind, text, start, end, line, col):
        self.kind, self.text, self.start, self.end, self.line, self.col = kind, text, start, end, line, col

    def __repr__(self):
        return "%s@%d:%d" % (self.text, self.line, self.col)


OPERATORS = sorted("""<<< >>> === !== == != <= >= && || << >> +: -: ++ -- ** ~& ~| ~^ ^~ += -=
    + - * / % < > ! ~ & | ^ ? : = ( ) [ ] { } , ; @ # .""".split(), key=len, reverse=True)
RE_WS = re.compile(r"\s+")
RE_SIZED = re.compile(r"\d[\d_]*\s*'[sS]?[bBoOdDhH]\s*[0-9a-fA-F_xXzZ?]+")
RE_UBASED = re.compile(r"'[sS]?[bBoOdDhH][0-9a-fA-F_xXzZ?]+|'[01xXzZ](?![\w])")
RE_DEC = re.compile(r"\d[\d_]*")
RE_IDENT = re.compile(r"[a-zA-Z_][a-zA-Z0-9_$]*|\$[a-zA-Z_][a-zA-Z0-9_$]*")
RE_DIRECTIVE = re.compile(r"`[a-zA-Z_]\w*")


def tokenize(text, fname):
    """Tokens of the text with comments and attributes removed; directives
    are tokens of kind 'dir' (with their macro name where they take one)."""
    toks = []
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def pos(off):
        ln = bisect.bisect_right(line_starts, off)
        return ln, off - line_starts[ln - 1] + 1

    i, n = 0, len(text)
    while i < n:
        m = RE_WS.match(text, i)
        if m:
            i = m.end()
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise BadInput("%s: line %d: unterminated comment" % (fname, pos(i)[0]))
            i = j + 2
            continue
        if text.startswith("(*", i) and not text.startswith("(*)", i):
            j = text.find("*)", i + 2)
            if j < 0:
                raise BadInput("%s: line %d: unterminated attribute" % (fname, pos(i)[0]))
            i = j + 2
            continue
        ln, col = pos(i)
        c = text[i]
        if c == "`":
            m = RE_DIRECTIVE.match(text, i)
            if not m:
                raise BadInput("%s: line %d: bad directive" % (fname, ln))
            word = m.group(0)
            j = m.end()
            if word in ("`ifdef", "`ifndef", "`elsif", "`default_nettype", "`timescale", "`include",
                        "`define", "`undef"):
                k = text.find("\n", j)
                k = n if k < 0 else k
                word = word + " " + text[j:k].strip()
                j = k
            toks.append(Tok("dir", word, i, j, ln, col))
            i = j
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            toks.append(Tok("str", text[i:j + 1], i, j + 1, ln, col))
            i = j + 1
            continue
        m = RE_SIZED.match(text, i) if c.isdigit() else None
        if m:
            toks.append(Tok("num", m.group(0), i, m.end(), ln, col))
            i = m.end()
            continue
        if c.isdigit():
            m = RE_DEC.match(text, i)
            toks.append(Tok("num", m.group(0), i, m.end(), ln, col))
            i = m.end()
            continue
        if c == "'" and text.startswith("'(", i):  # cast: N'(x), signed'(x)
            toks.append(Tok("op", "'", i, i + 1, ln, col))
            i += 1
            continue
        if c == "'":
            m = RE_UBASED.match(text, i)
            if m:
                toks.append(Tok("num", m.group(0), i, m.end(), ln, col))
                i = m.end()
                continue
        m = RE_IDENT.match(text, i)
        if m:
            toks.append(Tok("id", m.group(0), i, m.end(), ln, col))
            i = m.end()
            continue
        for op in OPERATORS:
            if text.startswith(op, i):
                toks.append(Tok("op", op, i, i + len(op), ln, col))
                i += len(op)
                break
        else:
            raise BadInput("%s: line %d: unexpected character '%s'" % (fname, ln, c))
    return toks


def drop_conditional(toks, fname):
    """Tokens outside `ifdef/`ifndef regions (formal properties and the like
    are never mutated)."""
    out, depth = [], 0
    for t in toks:
        if t.kind == "dir" and (t.text.startswith("`ifdef") or t.text.startswith("`ifndef")):
            depth += 1
        elif t.kind == "dir" and t.text.startswith("`endif"):
            if depth == 0:
                raise BadInput("%s: line %d: `endif without `ifdef" % (fname, t.line))
            depth -= 1
        elif depth == 0 and t.kind != "dir":
            out.append(t)
    if depth:
        raise BadInput("%s: unterminated `ifdef" % fname)
    return out


# --------------------------------------------------------------------------
# Numbers

def parse_number(s):
    """(width or None, value, base char) of a literal; value None if it has
    x or z digits."""
    s = s.replace("_", "").replace(" ", "")
    if "'" not in s:
        return None, int(s), "d"
    w, rest = s.split("'", 1)
    if rest and rest[0] in "sS":
        rest = rest[1:]
    if len(rest) == 1:  # '0 '1 'x 'z
        return None, (int(rest) if rest in "01" else None), "fill"
    base, digits = rest[0].lower(), rest[1:]
    if re.search(r"[xXzZ?]", digits):
        return (int(w) if w else None), None, base
    radix = {"b": 2, "o": 8, "d": 10, "h": 16}[base]
    return (int(w) if w else None), int(digits, radix), base


def format_number(width, value, base):
    if base == "fill":
        return "'%d" % value
    digits = {"b": format(value, "b"), "o": format(value, "o"), "d": str(value),
              "h": format(value, "x")}[base]
    return ("%d'%s%s" % (width, base, digits)) if width else ("'%s%s" % (base, digits))


# --------------------------------------------------------------------------
# Expressions

BINARY_PREC = {
    "||": 1, "&&": 2, "|": 3, "~|": 3, "^": 4, "~^": 4, "^~": 4, "&": 5, "~&": 5,
    "==": 6, "!=": 6, "===": 6, "!==": 6, "<": 7, "<=": 7, ">": 7, ">=": 7,
    "<<": 8, ">>": 8, "<<<": 8, ">>>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10, "**": 11,
}
UNARY_OPS = ("!", "~", "&", "|", "^", "~&", "~|", "~^", "^~", "-", "+")


class Node:
    """kind: id num paren concat repl cast unary binary ternary index part ipart call.
    t0/t1: first and one-past-last token index; op: operator token index."""
    __slots__ = ("kind", "t0", "t1", "kids", "op")

    def __init__(self, kind, t0, t1, kids=(), op=None):
        self.kind, self.t0, self.t1, self.kids, self.op = kind, t0, t1, list(kids), op


class Parser:
    def __init__(self, toks, fname):
        self.t, self.i, self.fname = toks, 0, fname

    # helpers
    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else None

    def at(self, text):
        p = self.peek()
        return p is not None and p.text == text and p.kind in ("op", "id")

    def err(self, what):
        p = self.peek()
        if p is None:
            raise BadInput("%s: unexpected end of file (%s)" % (self.fname, what))
        raise BadInput("%s: line %d: %s at '%s'" % (self.fname, p.line, what, p.text))

    def expect(self, text):
        if not self.at(text):
            self.err("expected '%s'" % text)
        self.i += 1
        return self.i - 1

    # expressions
    def expr(self):
        return self.ternary()

    def ternary(self):
        c = self.binary(1)
        if self.at("?"):
            q = self.i
            self.i += 1
            a = self.ternary()
            self.expect(":")
            b = self.ternary()
            return Node("ternary", c.t0, b.t1, (c, a, b), q)
        return c

    def binary(self, minprec):
        left = self.unary()
        while True:
            p = self.peek()
            if p is None or p.kind != "op" or p.text not in BINARY_PREC:
                return left
            prec = BINARY_PREC[p.text]
            if prec < minprec:
                return left
            opi = self.i
            self.i += 1
            right = self.binary(prec + 1)
            left = Node("binary", left.t0, right.t1, (left, right), opi)

    def unary(self):
        p = self.peek()
        if p is not None and p.kind == "op" and p.text in UNARY_OPS:
            opi = self.i
            self.i += 1
            x = self.unary()
            return Node("unary", opi, x.t1, (x,), opi)
        return self.postfix(self.primary())

    def primary(self):
        p = self.peek()
        if p is None:
            self.err("expected an expression")
        t0 = self.i
        if p.kind in ("num", "id") and self.peek(1) is not None and self.peek(1).text == "'" and \
                self.peek(1).kind == "op":  # cast N'(x): the size is not mutated
            self.i += 2
            self.expect("(")
            x = self.expr()
            self.expect(")")
            return Node("cast", t0, self.i, (Node("num" if p.kind == "num" else "id", t0, t0 + 1), x))
        if p.kind == "num":
            self.i += 1
            return Node("num", t0, self.i)
        if p.kind == "id" and p.text.startswith("$"):
            self.i += 1
            args = []
            if self.at("("):
                self.i += 1
                while not self.at(")"):
                    args.append(self.expr())
                    if self.at(","):
                        self.i += 1
                self.i += 1
            return Node("call", t0, self.i, args)
        if p.kind == "id" and self.peek(1) is not None and self.peek(1).text == "(" and \
                self.peek(1).kind == "op":  # function call: the arguments are expressions
            self.i += 2
            args = []
            while not self.at(")"):
                args.append(self.expr())
                if self.at(","):
                    self.i += 1
                elif not self.at(")"):
                    self.err("expected ',' or ')'")
            self.i += 1
            return Node("call", t0, self.i, args)
        if p.kind == "id":
            self.i += 1
            return Node("id", t0, self.i)
        if p.text == "(":
            self.i += 1
            x = self.expr()
            self.expect(")")
            return Node("paren", t0, self.i, (x,))
        if p.text == "{":
            self.i += 1
            first = self.expr()
            if self.at("{"):  # replication {N{...}}
                self.i += 1
                items = [self.expr()]
                while self.at(","):
                    self.i += 1
                    items.append(self.expr())
                self.expect("}")
                self.expect("}")
                return Node("repl", t0, self.i, [first] + items)
            items = [first]
            while self.at(","):
                self.i += 1
                items.append(self.expr())
            self.expect("}")
            return Node("concat", t0, self.i, items)
        self.err("expected an expression")

    def postfix(self, x):
        while self.at("["):
            self.i += 1
            a = self.expr()
            if self.at(":"):
                self.i += 1
                b = self.expr()
                self.expect("]")
                x = Node("part", x.t0, self.i, (x, a, b))
            elif self.at("+:") or self.at("-:"):
                opi = self.i
                self.i += 1
                b = self.expr()
                self.expect("]")
                x = Node("ipart", x.t0, self.i, (x, a, b), opi)
            else:
                self.expect("]")
                x = Node("index", x.t0, self.i, (x, a))
        return x

    def lvalue(self):
        if self.at("{"):
            return self.primary()
        p = self.peek()
        if p is None or p.kind != "id":
            self.err("expected an assignment target")
        self.i += 1
        return self.postfix(Node("id", self.i - 1, self.i))


# --------------------------------------------------------------------------
# Module structure

DECL_KW = ("logic", "wire", "reg", "bit", "integer", "int", "tri", "var")


class Module:
    """One module of a file (parse_file): declarations, constants, ports,
    the modules it instantiates and the statements the operators visit.
    Generate regions (for loops over genvars, if/else on constants, named
    blocks) are walked with their genvars' ranges; function bodies are
    statements like an always block's."""

    def __init__(self, fname, text, toks=None, start=0):
        self.fname, self.text = fname, text
        self.toks = toks if toks is not None else drop_conditional(tokenize(text, fname), fname)
        self.decls = {}     # name -> (msb, lsb) or None (unknown); memories in self.mems
        self.mems = set()
        self.ports = {}     # name -> direction
        self.consts = {}
        self.items = []     # statements with their context (see _stmt)
        self.instances = []  # names of the modules instantiated
        self.name = None
        self.end = None     # token index after endmodule
        self.genv = {}      # genvar ranges of the generate region being parsed
        self._parse(start)

    def tok_text(self, t0, t1):
        if t0 >= t1:
            return ""
        return self.text[self.toks[t0].start:self.toks[t1 - 1].end]

    def node_text(self, n):
        return self.tok_text(n.t0, n.t1)

    # constant evaluation (ranges, loop bounds, indices)
    def const_eval(self, n, env=None):
        t = self.toks
        if n.kind == "num":
            w, v, _ = parse_number(t[n.t0].text)
            return v
        if n.kind == "id":
            name = t[n.t0].text
            if env is not None and name in env:
                return env[name]
            return self.consts.get(name)
        if n.kind == "paren":
            return self.const_eval(n.kids[0], env)
        if n.kind == "unary" and t[n.op].text in ("-", "+"):
            v = self.const_eval(n.kids[0], env)
            return None if v is None else (-v if t[n.op].text == "-" else v)
        if n.kind == "binary":
            a, b = self.const_eval(n.kids[0], env), self.const_eval(n.kids[1], env)
            if a is None or b is None:
                return None
            op = t[n.op].text
            try:
                return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                        "/": lambda: a // b, "%": lambda: a % b, "**": lambda: a ** b,
                        "<<": lambda: a << b, ">>": lambda: a >> b}[op]()
            except (KeyError, ZeroDivisionError, ValueError):
                return None
        if n.kind == "call" and self.toks[n.t0].text == "$clog2" and len(n.kids) == 1:
            v = self.const_eval(n.kids[0], env)
            return None if v is None or v < 1 else (v - 1).bit_length()
        return None

    def _parse(self, start):
        P = Parser(self.toks, self.fname)
        P.i = start
        self.P = P
        while P.peek() is not None and not P.at("module"):
            P.i += 1
        if P.peek() is None:
            raise BadInput("%s: no module" % self.fname)
        P.i += 1
        self.name = P.peek().text
        P.i += 1
        if P.at("#"):
            P.i += 1
            self._params()
        if P.at("("):
            self._ports()
        P.expect(";")
        while P.peek() is not None and not P.at("endmodule"):
            self._item()
        if P.peek() is None:
            raise BadInput("%s: no endmodule" % self.fname)
        self.end = P.i + 1

    def _params(self):
        """#(parameter ... NAME = value, ...): the defaults are constants."""
        P = self.P
        P.expect("(")
        while not P.at(")"):
            if P.peek() is None:
                P.err("unterminated parameter list")
            if P.at("["):
                self._range()
            elif P.peek().kind == "id" and P.peek(1) is not None and P.peek(1).text == "=":
                name = P.peek().text
                P.i += 2
                v = self.const_eval(P.expr())
                if v is not None:
                    self.consts[name] = v
            else:
                P.i += 1
        P.i += 1

    def _skip_parens(self):
        P = self.P
        P.expect("(")
        depth = 1
        while depth:
            if P.peek() is None:
                P.err("unbalanced parentheses")
            if P.at("("):
                depth += 1
            elif P.at(")"):
                depth -= 1
            P.i += 1

    def _range(self):
        """[msb:lsb] -> (msb, lsb) or None when not constant."""
        P = self.P
        P.expect("[")
        a = P.expr()
        P.expect(":")
        b = P.expr()
        P.expect("]")
        ma, mb = self.const_eval(a), self.const_eval(b)
        return None if ma is None or mb is None else (ma, mb)

    def _ports(self):
        P = self.P
        P.expect("(")
        direction, rng = None, (0, 0)
        while not P.at(")"):
            if P.peek() is None:
                P.err("unterminated port list")
            if P.at("input") or P.at("output") or P.at("inout"):
                direction, rng = P.peek().text, (0, 0)
                P.i += 1
                continue
            if P.peek().text in DECL_KW or P.peek().text in ("signed", "unsigned"):
                P.i += 1
                continue
            if P.at("["):
                rng = self._range()
                continue
            if P.at(","):
                P.i += 1
                continue
            if P.peek().kind == "id":
                self.ports[P.peek().text] = direction
                self.decls[P.peek().text] = rng
                P.i += 1
                continue
            P.err("unexpected token in the port list")
        P.i += 1

    def _decl(self):
        self.P.i += 1
        self._decl_names()

    def _decl_names(self):
        P = self.P
        while P.at("signed") or P.at("unsigned") or (P.peek() and P.peek().text in DECL_KW):
            P.i += 1
        rng = (0, 0)
        if P.at("["):
            rng = self._range()
        while True:
            p = P.peek()
            if p is None or p.kind != "id":
                P.err("expected a signal name")
            name = p.text
            P.i += 1
            self.decls[name] = rng
            while P.at("["):
                self._range()
                self.mems.add(name)
            if P.at("="):
                P.i += 1
                P.expr()
            if P.at(","):
                P.i += 1
                continue
            P.expect(";")
            return

    def _localparam(self):
        P = self.P
        P.i += 1
        while P.peek() is not None and P.peek().kind == "id" and P.peek(1) is not None and \
                P.peek(1).text != "=":
            P.i += 1
        if P.at("["):
            self._range()
        while True:
            name = P.peek().text
            P.i += 1
            P.expect("=")
            v = self.const_eval(P.expr())
            if v is not None:
                self.consts[name] = v
            if P.at(","):
                P.i += 1
                continue
            P.expect(";")
            return

    def _item(self):
        P = self.P
        p = P.peek()
        if p.text in DECL_KW:
            return self._decl()
        if p.text in ("localparam", "parameter"):
            return self._localparam()
        if p.text == "assign":
            t0 = P.i
            P.i += 1
            lhs = P.lvalue()
            P.expect("=")
            rhs = P.expr()
            semi = P.expect(";")
            self.items.append(dict(kind="assign", lhs=lhs, rhs=rhs, t0=t0, semi=semi, env=self.genv))
            return
        if p.text in ("always_comb", "always_ff", "always", "always_latch", "initial", "final"):
            kind = {"always_comb": "comb", "always_ff": "ff"}.get(p.text, "other")
            P.i += 1
            if P.at("@"):
                P.i += 1
                if P.at("*"):
                    P.i += 1
                else:
                    self._skip_parens()
            self._block = dict(kind=kind, defaults={})
            self._stmt(dict(block=self._block, cond=0, loop=0, env=self.genv))
            return
        if p.text in ("genvar", "generate", "endgenerate", "for", "if", "begin", "function"):
            return self._generate_item()
        if p.text in ("task", "case", "interface", "package", "class"):
            P.err("unsupported construct")
        if p.text == ";":
            P.i += 1
            return
        # module instance: name #(...) inst (...);  connections are not mutated
        if p.kind == "id":
            self.instances.append(p.text)
            while P.peek() is not None and not P.at(";"):
                if P.at("("):
                    self._skip_parens()
                else:
                    P.i += 1
            P.expect(";")
            return
        P.err("unexpected module item")

    def _generate_item(self):
        """genvar, generate/endgenerate, a generate for loop (its genvar's
        range is the environment of the items inside), a generate if
        (conditions are constants: not mutated), a named block, a function."""
        P = self.P
        p = P.peek()
        if p.text in ("generate", "endgenerate"):
            P.i += 1
            return
        if p.text == "genvar":
            while not P.at(";"):
                P.i += 1
            P.i += 1
            return
        if p.text == "function":
            return self._function()
        if p.text == "begin":
            return self._begin_end(self._item)
        if p.text == "if":
            P.i += 1
            P.expect("(")
            P.expr()
            P.expect(")")
            self._item()
            if P.at("else"):
                P.i += 1
                self._item()
            return
        # for (genvar? g = lo; g < hi; g = g + 1 | g++ | g += 1)
        P.i += 1
        P.expect("(")
        if P.at("genvar"):
            P.i += 1
        var, lo, hi, step_ok, bound = self._for_header(dict(self.genv))
        outer = self.genv
        self.genv = dict(outer)
        self.genv[var] = range(lo, hi) if (lo is not None and hi is not None and step_ok) else None
        if bound is not None:
            self.items.append(dict(kind="bound", num=bound))
        self._item()
        self.genv = outer

    def _begin_end(self, each):
        """begin [: label] ... end [: label], each() parsing one element."""
        P = self.P
        P.i += 1
        if P.at(":"):
            P.i += 2
        while not P.at("end"):
            if P.peek() is None:
                P.err("unterminated begin block")
            each()
        P.i += 1
        if P.at(":"):
            P.i += 2

    def _function(self):
        """function [automatic] [type] [range] name (ports); body endfunction,
        or the old form with input declarations in the body. Its statements
        are mutated like an always block's (no hold or drop)."""
        P = self.P
        P.i += 1
        while P.peek() is not None and not (P.peek().kind == "id" and P.peek(1) is not None and
                                            P.peek(1).text in ("(", ";") and
                                            P.peek().text not in DECL_KW + ("automatic", "signed")):
            if P.at("["):
                self._range()
            else:
                P.i += 1
        if P.peek() is None:
            P.err("unterminated function")
        P.i += 1
        module_ports = dict(self.ports)  # a function's ports are not the module's
        if P.at("("):
            self._ports()
        self.ports = module_ports
        P.expect(";")
        ctx = dict(block=dict(kind="func", defaults={}), cond=0, loop=0, env=self.genv)
        while not P.at("endfunction"):
            if P.peek() is None:
                P.err("unterminated function")
            if P.peek().text in ("input", "output"):
                P.i += 1
                self._decl_names()
                continue
            self._stmt(ctx)
        P.i += 1
        if P.at(":"):
            P.i += 2

    def _for_header(self, env):
        """After 'for (' [int|genvar]: var = init; var < bound; step ).
        Returns (var, lo, hi, step_ok, bound node to mutate or None)."""
        P = self.P
        if P.peek().text in ("int", "integer", "genvar"):
            P.i += 1
        var = P.peek().text
        P.i += 1
        P.expect("=")
        init = P.expr()
        P.expect(";")
        cond = P.expr()
        P.expect(";")
        step_ok = False
        down = False
        if P.peek().text == var:
            P.i += 1
            if P.at("++"):
                P.i += 1
                step_ok = True
            elif P.at("--"):
                P.i += 1
                down = True
            elif P.at("+=") or P.at("="):
                P.i += 1
                e = P.expr()
                step_ok = self.node_text(e).replace(" ", "") in ("1", var + "+1")
        elif P.at("++"):
            P.i += 2
            step_ok = True
        P.expect(")")
        lo = self.const_eval(init, env)
        hi, bound = None, None
        if down:
            # for (i = hi; i >= lo | i > lo; i--): the same iterations, no bound mutated
            start, lo = lo, None
            if cond.kind == "binary" and self.toks[cond.kids[0].t0].text == var and \
                    cond.kids[0].kind == "id" and self.toks[cond.op].text in (">", ">="):
                end = self.const_eval(cond.kids[1], env)
                if end is not None and start is not None:
                    lo, hi = end + (1 if self.toks[cond.op].text == ">" else 0), start + 1
                    step_ok = True
            return var, lo, hi, step_ok, None
        if cond.kind == "binary" and self.toks[cond.kids[0].t0].text == var and \
                cond.kids[0].kind == "id" and self.toks[cond.op].text in ("<", "<="):
            hi = self.const_eval(cond.kids[1], env)
            if hi is not None and self.toks[cond.op].text == "<=":
                hi += 1
            if cond.kids[1].kind == "num" and hi is not None and lo is not None and hi - lo > 1:
                bound = cond.kids[1]
        return var, lo, hi, step_ok, bound

    def _stmt(self, ctx):
        P = self.P
        p = P.peek()
        if p is None:
            P.err("expected a statement")
        if p.text in DECL_KW or p.text == "automatic":  # a block's or function's local variables
            if p.text == "automatic":
                P.i += 1
            return self._decl()
        if p.text == "return":
            P.i += 1
            if not P.at(";"):
                self.items.append(dict(kind="expr", node=P.expr(), env=ctx["env"]))
            P.expect(";")
            return
        if p.text == "begin":
            return self._begin_end(lambda: self._stmt(ctx))
        if p.text == "if":
            P.i += 1
            P.expect("(")
            cond = P.expr()
            P.expect(")")
            self.items.append(dict(kind="if", cond=cond, env=ctx["env"], block=ctx["block"]))
            sub = dict(ctx, cond=ctx["cond"] + 1)
            self._stmt(sub)
            if P.at("else"):
                P.i += 1
                self._stmt(sub)
            return
        if p.text == "for":
            P.i += 1
            P.expect("(")
            env = dict(ctx["env"])
            var, lo, hi, step_ok, bound = self._for_header(env)
            if bound is not None:
                self.items.append(dict(kind="bound", num=bound))
            env[var] = range(lo, hi) if (lo is not None and hi is not None and step_ok) else None
            self._stmt(dict(ctx, loop=ctx["loop"] + 1, env=env))
            return
        if p.text in ("case", "casez", "casex", "unique", "priority"):
            if p.text in ("unique", "priority"):
                P.i += 1
            P.i += 1
            P.expect("(")
            sel = P.expr()
            P.expect(")")
            self.items.append(dict(kind="expr", node=sel, env=ctx["env"]))
            sub = dict(ctx, cond=ctx["cond"] + 1)
            while not P.at("endcase"):
                if P.at("default"):
                    P.i += 1
                    if P.at(":"):
                        P.i += 1
                else:
                    while True:
                        self.items.append(dict(kind="expr", node=P.expr(), env=ctx["env"]))
                        if P.at(","):
                            P.i += 1
                            continue
                        break
                    P.expect(":")
                self._stmt(sub)
            P.i += 1
            return
        if p.text == ";":
            P.i += 1
            return
        if p.kind == "id" and p.text.startswith("$"):  # system task
            while not P.at(";"):
                P.i += 1
            P.i += 1
            return
        t0 = P.i
        lhs = P.lvalue()
        if P.at("="):
            blocking = True
        elif P.at("<="):
            blocking = False
        else:
            P.err("expected '=' or '<='")
        P.i += 1
        rhs = P.expr()
        semi = P.expect(";")
        base = self.toks[lhs.t0].text if lhs.kind != "concat" else None
        blk = ctx["block"]
        self.items.append(dict(kind="passign", lhs=lhs, rhs=rhs, t0=t0, semi=semi, env=ctx["env"],
                               block=blk, blocking=blocking, default=blk["defaults"].get(base),
                               top=ctx["cond"] == 0 and ctx["loop"] == 0))
        if ctx["cond"] == 0 and ctx["loop"] == 0 and base is not None and base not in blk["defaults"]:
            blk["defaults"][base] = self.node_text(rhs)


def parse_file(fname, text):
    """Every module of a file, in text order."""
    toks = drop_conditional(tokenize(text, fname), fname)
    mods, i = [], 0
    while any(t.text == "module" and t.kind == "id" for t in toks[i:]):
        m = Module(fname, text, toks, i)
        mods.append(m)
        i = m.end
    if not mods:
        raise BadInput("%s: no module" % fname)
    return mods


class Unit:
    """The RTL of a unit: its top file and, found by name in the same
    directory (<module>.sv, one module per file), the files of every module
    its modules instantiate, recursively. A mutant is attributed to the
    module that holds it; its name is its id in the top file, <module>:<id>
    in another file (ids are positions in their own file)."""

    def __init__(self, path, rel=None):
        self.dir = os.path.dirname(os.path.abspath(path))
        self.files = []  # (path, shown name, text, modules)
        defined, todo = set(), [path]
        while todo:
            f = todo.pop(0)
            with open(f) as fh:
                text = fh.read()
            shown = rel(f) if rel else f
            mods = parse_file(shown, text)
            self.files.append((f, shown, text, mods))
            defined |= {m.name for m in mods}
            for m in mods:
                for name in m.instances:
                    g = os.path.join(self.dir, name + ".sv")
                    if name not in defined and os.path.exists(g) and g not in todo and \
                            all(g != x[0] for x in self.files):
                        todo.append(g)
        self.top = self.files[0][3]
        self.modules = [m.name for x in self.files for m in x[3]]
        self.list = []
        for k, (f, shown, text, mods) in enumerate(self.files):
            for c in Candidates(mods).list:
                c.file = f
                c.name = c.id if k == 0 else "%s:%s" % (c.module, c.id)
                self.list.append(c)
        self.by_id = {c.name: c for c in self.list}
        self.by_key = {(c.module, c.id): c for c in self.list}

    def text_of(self, f):
        return [x[2] for x in self.files if x[0] == f][0]


# --------------------------------------------------------------------------
# Candidates

SWAP = {"&": "|", "|": "&", "&&": "||", "||": "&&", "==": "!=", "!=": "==", "<": "<=", "<=": "<",
        ">": ">=", ">=": ">", "+": "-", "-": "+"}
TERM_OPS = ("&", "|", "^", "&&", "||")


class Mutant:
    __slots__ = ("op", "line", "col", "k", "edits", "id", "desc", "text", "module", "file", "name")

    def __init__(self, op, tok, k, edits, desc, module=None):
        self.op, self.line, self.col, self.k, self.edits, self.desc = op, tok.line, tok.col, k, edits, desc
        self.id = "%s-%d-%d-%d" % (op, tok.line, tok.col, k)
        self.text = None
        self.module, self.file, self.name = module, None, self.id


def apply_edits(text, edits):
    out, last = [], 0
    for s, e, r in sorted(edits):
        if s < last:
            raise RuntimeError("overlapping edits")
        out.append(text[last:s])
        out.append(r)
        last = e
    out.append(text[last:])
    return "".join(out)


class Candidates:
    """The mutants of the modules of one file (a Module or a list)."""

    def __init__(self, mods):
        mods = mods if isinstance(mods, list) else [mods]
        self.t, self.text = mods[0].toks, mods[0].text
        self.list = []
        for mod in mods:
            self.m = mod
            for it in mod.items:
                self._item(it)
        # one mutant per distinct mutated text, in text order
        self.list.sort(key=lambda c: (c.line, c.col, OPS.index(c.op), c.k))
        seen, uniq = set(), []
        for c in self.list:
            c.text = apply_edits(self.text, c.edits)
            if c.text == self.text:
                continue
            h = hashlib.sha256(c.text.encode()).digest()
            if h in seen:
                continue
            seen.add(h)
            uniq.append(c)
        self.list = uniq
        self.by_id = {c.id: c for c in self.list}

    def span(self, n):
        return self.t[n.t0].start, self.t[n.t1 - 1].end

    def add(self, op, tok, k, edits, desc):
        self.list.append(Mutant(op, tok, k, edits, desc, self.m.name))

    def width_of(self, lhs):
        """Bits written by an assignment target, or None."""
        m = self.m
        if lhs.kind == "id":
            r = m.decls.get(self.t[lhs.t0].text)
            return None if r is None or self.t[lhs.t0].text in m.mems else abs(r[0] - r[1]) + 1
        if lhs.kind == "index" and lhs.kids[0].kind == "id" and self.t[lhs.t0].text not in m.mems:
            return 1
        if lhs.kind == "part":
            a, b = m.const_eval(lhs.kids[1]), m.const_eval(lhs.kids[2])
            return None if a is None or b is None else abs(a - b) + 1
        if lhs.kind == "ipart":
            return m.const_eval(lhs.kids[2])
        return None

    def expr_width(self, n):
        """Width of a select or a signal, or None."""
        if n.kind == "paren":
            return self.expr_width(n.kids[0])
        if n.kind in ("id", "index", "part", "ipart"):
            return self.width_of(n)
        return None

    def _item(self, it):
        kind = it["kind"]
        env = it.get("env", {})
        if kind == "if":
            n = it["cond"]
            s, e = self.span(n)
            self.add("cond", self.t[n.t0], 0, [(s, e, "!(" + self.text[s:e] + ")")],
                     "if condition inverted")
            self._expr(n, env)
        elif kind == "expr":
            self._expr(it["node"], env)
        elif kind == "bound":
            n = it["num"]
            w, v, base = parse_number(self.t[n.t0].text)
            s, e = self.span(n)
            self.add("const", self.t[n.t0], 0, [(s, e, format_number(w, v - 1, base))],
                     "loop bound one less")
        elif kind == "assign":
            self._assign(it)
            self._expr(it["rhs"], env)
        elif kind == "passign":
            self._passign(it)
            self._expr(it["rhs"], env)

    def _assign(self, it):
        lhs, rhs = it["lhs"], it["rhs"]
        if rhs.kind == "num":
            return
        is_out = lhs.kind == "id" and self.m.ports.get(self.t[lhs.t0].text) == "output"
        if not is_out and self.width_of(lhs) != 1:
            return
        s, e = self.span(rhs)
        semi = self.t[it["semi"]]
        keep = " logic unused_mutant; assign unused_mutant = ^(%s);" % self.text[s:e]
        for k, v in enumerate(("'0", "'1")):
            self.add("stuck", self.t[lhs.t0], k, [(s, e, v), (semi.end, semi.end, keep)],
                     "%s stuck at %d" % (self.m.node_text(lhs), k))

    def _passign(self, it):
        m, lhs, rhs = self.m, it["lhs"], it["rhs"]
        blk = it["block"]
        if lhs.kind == "concat":
            return
        base = self.t[lhs.t0].text
        s, e = self.span(rhs)
        if blk["kind"] == "comb" and base.endswith("_d") and (base[:-2] + "_q") in m.decls:
            q = base[:-2] + "_q" + m.tok_text(lhs.t0 + 1, lhs.t1)
            # after a default x_d = x_q, holding is the same as dropping
            if self.text[s:e] != q and it["default"] != base[:-2] + "_q":
                self.add("hold", self.t[lhs.t0], 0, [(s, e, q)], "%s held (= %s)" % (base, q))
        if blk["kind"] == "ff" and not it["blocking"] and rhs.kind != "num":
            q = m.node_text(lhs)
            if self.text[s:e] != q:
                self.add("hold", self.t[lhs.t0], 0, [(s, e, q)], "%s never updated" % base)
        if blk["kind"] == "comb" and it["default"] is not None:
            st, en = self.t[it["t0"]].start, self.t[it["semi"]].end
            self.add("drop", self.t[it["t0"]], 0, [(st, en, "begin end")],
                     "assignment to %s dropped" % base)

    def _values(self, n, env):
        """Every value of an index expression over the loop variables, or None."""
        names = sorted({self.t[i].text for i in range(n.t0, n.t1)
                        if self.t[i].kind == "id" and self.t[i].text in env})
        if any(env[v] is None for v in names):
            return None
        vals = []
        for combo in itertools.product(*(env[v] for v in names)):
            v = self.m.const_eval(n, dict(zip(names, combo)))
            if v is None:
                return None
            vals.append(v)
        return vals

    def _bitsel(self, n, env):
        m = self.m
        base = n.kids[0]
        if base.kind != "id":
            return
        name = self.t[base.t0].text
        r = m.decls.get(name)
        if r is None or name in m.mems:
            return
        lo, hi = min(r), max(r)
        if n.kind == "index":
            ix = n.kids[1]
            vals = self._values(ix, env)
            if not vals:
                return
            s, e = self.span(ix)
            for d in (1, -1):
                if all(lo <= v + d <= hi for v in vals):
                    if ix.kind == "num":
                        rep = str(vals[0] + d)
                    else:
                        rep = "(%s) %s 1" % (self.text[s:e], "+" if d > 0 else "-")
                    self.add("bitsel", self.t[ix.t0], 0, [(s, e, rep)],
                             "%s bit shifted by %+d" % (name, d))
                    return
        elif n.kind == "part":
            a, b = m.const_eval(n.kids[1]), m.const_eval(n.kids[2])
            if a is None or b is None:
                return
            for d in (1, -1):
                if lo <= a + d <= hi and lo <= b + d <= hi:
                    s, e = self.t[n.kids[1].t0].start, self.t[n.kids[2].t1 - 1].end
                    self.add("bitsel", self.t[n.kids[1].t0], 0, [(s, e, "%d:%d" % (a + d, b + d))],
                             "%s part-select shifted by %+d" % (name, d))
                    return
        elif n.kind == "ipart":
            width = m.const_eval(n.kids[2])
            vals = self._values(n.kids[1], env)
            if width is None or not vals:
                return
            down = self.t[n.op].text == "-:"
            s, e = self.span(n.kids[1])
            for d in (1, -1):
                ok = all(lo <= (v + d - (width - 1 if down else 0)) and
                         (v + d + (0 if down else width - 1)) <= hi for v in vals)
                if ok:
                    self.add("bitsel", self.t[n.kids[1].t0], 0,
                             [(s, e, "(%s) %s 1" % (self.text[s:e], "+" if d > 0 else "-"))],
                             "%s part-select shifted by %+d" % (name, d))
                    return

    def _expr(self, n, env, in_index=False):
        t = self.t
        k = n.kind
        if k in ("index", "part", "ipart"):
            if not in_index:
                self._bitsel(n, env)
            self._expr(n.kids[0], env, in_index)
            for x in n.kids[1:]:
                self._expr(x, env, True)
            return
        if k in ("repl", "cast"):  # the count and the size are not mutated
            for x in n.kids[1:]:
                self._expr(x, env, in_index)
            return
        if not in_index:
            if k == "num":
                w, v, base = parse_number(t[n.t0].text)
                if v is not None:
                    if base == "fill":
                        nv = 1 - v
                    elif w is not None:
                        nv = v + 1 if v + 1 < (1 << w) else v - 1
                    else:
                        nv = v + 1
                    s, e = self.span(n)
                    new = format_number(w, nv, base)
                    short = (lambda x: x if len(x) <= 24 else x[:10] + "..." + x[-8:])
                    self.add("const", t[n.t0], 0, [(s, e, new)],
                             "constant %s -> %s" % (short(t[n.t0].text), short(new)))
            elif k == "binary":
                op = t[n.op].text
                if op in SWAP:
                    tok = t[n.op]
                    self.add("swap", tok, 0, [(tok.start, tok.end, SWAP[op])],
                             "'%s' -> '%s'" % (op, SWAP[op]))
                if op in TERM_OPS:
                    s, e = self.span(n)
                    for kk, keep in enumerate(n.kids):
                        ks, ke = self.span(keep)
                        self.add("term", t[n.op], kk, [(s, e, "(" + self.text[ks:ke] + ")")],
                                 "'%s' keeps its %s operand" % (op, ("left", "right")[kk]))
            elif k == "unary":
                op = t[n.op].text
                tok = t[n.op]
                if op in ("&", "|") and self.expr_width(n.kids[0]) != 1:
                    self.add("swap", tok, 0, [(tok.start, tok.end, "|" if op == "&" else "&")],
                             "reduction '%s' -> '%s'" % (op, "|" if op == "&" else "&"))
                if op in ("~", "!"):
                    self.add("unary", tok, 0, [(tok.start, tok.end, "")], "'%s' dropped" % op)
            elif k == "ternary":
                c = n.kids[0]
                s, e = self.span(c)
                # a negated condition is the unary operator's mutant already
                if not (c.kind == "unary" and t[c.op].text in ("~", "!")):
                    self.add("cond", t[n.op], 0, [(s, e, "!(" + self.text[s:e] + ")")],
                             "ternary condition inverted")
                s, e = self.span(n)
                for kk, br in enumerate(n.kids[1:]):
                    bs, be = self.span(br)
                    self.add("term", t[n.op], kk, [(s, e, "(" + self.text[bs:be] + ")")],
                             "ternary always takes its %s branch" % ("then", "else")[kk])
        for x in n.kids:
            self._expr(x, env, in_index)


def rank(seed, mid):
    return hashlib.sha256(("%d:%s" % (seed, mid)).encode()).hexdigest()


def select(cands, seed, count):
    """Stratified, deterministic: each operator's candidates in the order of
    sha256(seed:name); then one per operator in turn (OPS order) until count.
    A smaller count is a prefix of a larger one."""
    pools = {op: sorted((c for c in cands if c.op == op), key=lambda c: rank(seed, c.name)) for op in OPS}
    out, r = [], 0
    while len(out) < count and any(len(p) > r for p in pools.values()):
        for op in OPS:
            if len(pools[op]) > r and len(out) < count:
                out.append(pools[op][r])
        r += 1
    return out


# --------------------------------------------------------------------------
# Units, configurations, equivalents

RUNNING = set()  # process groups of the commands under way


def run_text(cmd, timeout=None, **kw):
    """Runs cmd in its own process group: a timeout ends the whole group, and
    so does ending this script (stop_children)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                         start_new_session=True, **kw)
    RUNNING.add(p.pid)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        raise subprocess.TimeoutExpired(cmd, timeout, output=out)
    finally:
        RUNNING.discard(p.pid)
    return subprocess.CompletedProcess(cmd, p.returncode, out)


def stop_children(signum, frame):
    for pid in list(RUNNING):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    os._exit(128 + signum)


def parse_run(w, where):
    """(stream, seed, cycles, extra) of one run written stream:seed:cycles[:flag=value+...]
    (stream '' or '-': the bench's default)."""
    f = w.split(":")
    if len(f) not in (3, 4) or not f[1].isdigit() or not f[2].isdigit() or int(f[2]) < 1 or \
            (len(f) == 4 and not all(re.match(r"^[a-z][a-z-]*=\S+$", x) for x in f[3].split("+"))):
        raise BadInput("%s: '%s' is not %s" % (where, w, RUN_SYNTAX))
    extra = dict(x.split("=", 1) for x in f[3].split("+")) if len(f) == 4 else {}
    return (None if f[0] in ("", "-") else f[0], int(f[1]), int(f[2]), extra)


def list_streams(B):
    """{unit: [stream...]} from cohmodel --list=streams (the default first)."""
    cohmodel = os.path.join(B, "bin", "cohmodel")
    if not os.path.exists(cohmodel):
        raise BadInput("%s not found: run 'make tools' first" % cohmodel)
    r = run_text([cohmodel, "--list=streams"])
    if r.returncode != 0:
        raise BadInput("cohmodel --list=streams failed: %s" % r.stdout.strip().splitlines()[:1])
    return {f[0]: f[1:] for f in (line.split() for line in r.stdout.splitlines()) if f}


def unit_schedule(unit, family, streams):
    """The runs of a unit: its tb/<family>/<unit>_mutate.txt, else the
    default over its streams."""
    path = os.path.join(ROOT, "tb", family, unit + "_mutate.txt")
    if not os.path.exists(path):
        return [(st, k + 1, DEFAULT_CYCLES, {}) for k, st in
                zip(range(DEFAULT_RUNS), itertools.cycle(streams or [None]))]
    sched = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if s and not s.startswith("#"):
                sched.append(parse_run(s, "%s: line %d" % (os.path.relpath(path, ROOT), n)))
    if not sched:
        raise BadInput("%s: no run" % os.path.relpath(path, ROOT))
    return sched


def schedule_text(unit, sched):
    return "%s: %s" % (unit, ", ".join("%s %d cycles" % (run_name(r), r[2]) for r in sched))


def list_units(B):
    cohgen = os.path.join(B, "bin", "cohgen")
    if not os.path.exists(cohgen):
        raise BadInput("%s not found: run 'make tools' first" % cohgen)
    r = run_text([cohgen, "--list=units"])
    if r.returncode != 0:
        raise BadInput("cohgen --list=units failed: %s" % r.stdout.strip().splitlines()[:1])
    units = []
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) >= 3:
            units.append((f[0], f[1], f[2]))
    return units


def list_configs(B):
    """{unit: [preset...]} from cohgen --list=configs ("unit family module
    preset" a committed configuration), or None when cohgen lacks it."""
    r = run_text([os.path.join(B, "bin", "cohgen"), "--list=configs"])
    if r.returncode != 0:
        return None
    out = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 4:
            out.setdefault(f[0], []).append(f[3])
    return out


def committed(family, prefix, configs=None, unit=None):
    """Configurations whose RTL is committed: cohgen --list=configs, else
    rtl/<family>/<prefix>_<cfg>.sv that have a generated shim."""
    if configs is not None:
        return list(configs.get(unit, []))
    d = os.path.join(ROOT, "rtl", family)
    out = []
    if os.path.isdir(d):
        for f in sorted(os.listdir(d)):
            m = re.match(r"^%s_(\w+)\.sv$" % re.escape(prefix), f)
            if m and os.path.exists(os.path.join(harness_dir(d), f[:-3] + "_shim.cpp")):
                out.append(m.group(1))
    return out


def read_known(path):
    """tb/mutants-known.txt: <module> <mutant-id> <bug>: mutants modelling
    known bugs, run with every selection of their module; each must be killed."""
    known = []
    if not os.path.exists(path):
        return known
    with open(path) as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            parts = s.split(None, 2)
            if len(parts) < 3:
                raise BadInput("%s: line %d: expected '<module> <mutant-id> <bug>'" % (path, n))
            known.append((parts[0], parts[1], parts[2]))
    return known


def read_equivalents(path):
    eq = {}
    if not os.path.exists(path):
        return eq
    with open(path) as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            parts = s.split(None, 2)
            if len(parts) < 3:
                raise BadInput("%s: line %d: expected '<module> <mutant-id> <reason>'" % (path, n))
            if not re.match(r"^(%s)-\d+-\d+-\d+$" % "|".join(OPS), parts[1]):
                raise BadInput("%s: line %d: '%s' is not a mutant id" % (path, n, parts[1]))
            key = (parts[0], parts[1])
            if key in eq:
                raise BadInput("%s: line %d: %s %s listed twice" % (path, n, parts[0], parts[1]))
            eq[key] = parts[2]
    return eq


# --------------------------------------------------------------------------
# Running mutants

class Config:
    def __init__(self, unit, family, prefix, name):
        self.unit, self.family, self.prefix, self.name = unit, family, prefix, name
        self.module = "%s_%s" % (prefix, name)
        self.src_dir = os.path.join(ROOT, "rtl", family)
        self.sv = os.path.join(self.src_dir, self.module + ".sv")
        if not os.path.exists(self.sv):
            raise BadInput("no committed RTL %s for unit %s configuration '%s'" %
                           (os.path.relpath(self.sv, ROOT), unit, name))
        self.cands = Unit(self.sv, lambda f: os.path.relpath(f, ROOT))
        self.fname = self.cands.files[0][1]
        self.flags = set()


def harness_dir(src_dir):
    """The harness (shim, replay bench, port header) of the committed modules
    in rtl/<family>/: $B/harness/<family>/, generated by make harness."""
    return os.path.join(ROOT, os.environ.get("B", "build"), "harness", os.path.basename(src_dir))


def write_mutant_files(src_dir, module, cands, mutant, out_dir):
    """The unit's files (its top module's harness files from the harness
    directory), one of them mutated."""
    os.makedirs(out_dir, exist_ok=True)
    for suffix in ("_shim.cpp", "_tb.sv", "_ports.h"):
        p = os.path.join(harness_dir(src_dir), module + suffix)
        if os.path.exists(p):
            shutil.copyfile(p, os.path.join(out_dir, module + suffix))
    for (path, _, text, _) in cands.files:
        body = text
        if mutant is not None and mutant.file == path:
            body = mutant.text + "// MUTANT %s: %s (scripts/mutate.py)\n" % (mutant.name, mutant.desc)
        name = os.path.basename(path)
        tmp = os.path.join(out_dir, name + ".tmp")
        with open(tmp, "w") as f:
            f.write(body)
        os.replace(tmp, os.path.join(out_dir, name))


def first_error(log):
    for line in log.splitlines():
        if "%Error" in line or "error:" in line or "Error" in line:
            return line.strip()[:200]
    lines = [l for l in log.splitlines() if l.strip()]
    return lines[-1].strip()[:200] if lines else "build failed"


def run_name(r):
    stream, seed, cycles, extra = r
    return "%s seed %d%s" % (stream or "default", seed,
                             "".join(" %s %s" % (k, v) for k, v in sorted(extra.items())))


def bench_cmd(cfg, bench, stream, seed, cycles, extra, fail_prefix):
    cmd = [bench]
    if "--unit" in cfg.flags:
        cmd += ["--unit", cfg.unit]
    cmd += ["--config", cfg.name, "--seed", str(seed), "--cycles", str(cycles)]
    if stream is not None and "--stream" in cfg.flags:
        cmd += ["--stream", stream]
    for k, v in sorted(extra.items()):
        cmd += ["--" + k, v]
    if "--fail-prefix" in cfg.flags:
        cmd += ["--fail-prefix", fail_prefix]
    return cmd


def run_one(cfg, mutant, out_dir, schedule, B, keep, vopt, timeout):
    """Builds and runs one mutant (None: the unmutated text). Returns a dict
    with status killed / survived / invalid."""
    name = mutant.name.replace(":", ".") if mutant is not None else "_original"
    d = os.path.join(out_dir, cfg.unit, cfg.name, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    write_mutant_files(cfg.src_dir, cfg.module, cfg.cands, mutant, os.path.join(d, "rtl"))
    env = dict(os.environ, VOPT=vopt, B=B)
    t0 = time.time()
    try:
        r = run_text([os.path.join(ROOT, "scripts", "unit-bench.sh"), "--no-lint", "--rtl-from",
                      os.path.join(d, "rtl"), d, cfg.name, cfg.unit], cwd=ROOT, env=env, timeout=timeout)
        build_log, build_rc = r.stdout, r.returncode
    except subprocess.TimeoutExpired as e:
        build_log, build_rc = (e.output or "") + "\ntimeout", -1
    with open(os.path.join(d, "build.log"), "w") as f:
        f.write(build_log)
    res = dict(id=name, build_seconds=round(time.time() - t0, 1))
    bench = os.path.join(d, cfg.name, "tb_" + cfg.family)
    if build_rc != 0:
        res.update(status="invalid", detail="build: " + first_error(build_log))
    else:
        if not cfg.flags:
            # the options of the unit's bench (--unit, --stream, --fail-prefix)
            h = run_text([bench, "--unit", cfg.unit, "--help"])
            cfg.flags = set(re.findall(r"--[a-z][a-z-]*", h.stdout)) | {"checked"}
        res["status"] = "survived"
        t1 = time.time()
        for j, (stream, seed, cycles, extra) in enumerate(schedule or []):
            cmd = bench_cmd(cfg, bench, stream, seed, cycles, extra, os.path.join(d, "fail"))
            try:
                r = run_text(cmd, timeout=timeout)
                out, rc = r.stdout, r.returncode
            except subprocess.TimeoutExpired as e:
                out, rc = (e.output or ""), -1
            with open(os.path.join(d, "run%d.log" % j), "w") as f:
                f.write(" ".join(cmd) + "\n" + out)
            what = run_name((stream, seed, cycles, extra))
            mm = [l for l in out.splitlines() if "MISMATCH" in l]
            if rc == 1 and mm:
                res.update(status="killed", detail="%s: %s" % (what, mm[0].strip()[:240]))
                break
            if rc != 0:
                res.update(status="invalid", detail="%s: bench %s without a MISMATCH line" %
                           (what, "timed out" if rc == -1 else "exited %d" % rc))
                break
        res["run_seconds"] = round(time.time() - t1, 1)
    if not keep:
        shutil.rmtree(os.path.join(d, cfg.name, "vobj"), ignore_errors=True)
        for f in (os.path.join(cfg.name, "tb_" + cfg.family), os.path.join(cfg.name, "duts.o"), "fail.vcd"):
            p = os.path.join(d, f)
            if os.path.exists(p):
                os.remove(p)
    return res


def repro(cfg, mid):
    return "scripts/mutate.py --unit %s --config %s --only %s" % (cfg.unit, cfg.name, mid)


def atomic_write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(data)
    os.replace(tmp, path)


def report_md(summary):
    L = ["# Mutation testing", "",
         "Generated by `scripts/mutate.py` (seed %d, %s mutants a configuration, target %.0f %% of the "
         "non-equivalent valid mutants killed). Runs a mutant: %s." %
         (summary["seed"], summary["count"], summary["target"] * 100, "; ".join(summary.get("schedules", []))), "",
         "| unit | configuration | candidates | generated | killed | survived | equivalent | invalid | kill rate | known bugs killed |",
         "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for c in summary["configs"]:
        L.append("| %s | %s | %d | %d | %d | %d | %d | %d | %s | %s |" % (
            c["unit"], c["config"], c["candidates"], c["generated"], c["killed"], c["survived"],
            c["equivalent"], c["invalid"], "%.1f %%" % (100 * c["kill_rate"]) if c["kill_rate"] is not None else "-",
            "%d/%d" % (c["known_killed"], c["known"]) if c["known"] else "-"))
    L += ["", "Generated: the seeded selection plus the known-bug mutants of `tb/mutants-known.txt` "
          "not already in it."]
    for c in summary["configs"]:
        L += ["", "## %s / %s (`%s`)" % (c["unit"], c["config"], c["file"]), ""]
        L.append("Build %.0f s a mutant on average (Verilator and C++), runs %.2f s." %
                 (c["mean_build_seconds"], c["mean_run_seconds"]))
        L += ["", "| operator | generated | killed | survived | equivalent | invalid |", "|---|---:|---:|---:|---:|---:|"]
        for op in OPS:
            s = c["by_operator"].get(op)
            if s:
                L.append("| %s | %d | %d | %d | %d | %d |" % (op, s["generated"], s["killed"], s["survived"],
                                                               s["equivalent"], s["invalid"]))
        groups = [("Survivors (not equivalent)", "survived"), ("Equivalent", "equivalent"),
                  ("Invalid", "invalid"), ("Killed", "killed")]
        for title, st in groups:
            ms = [m for m in c["mutants"] if m["status"] == st]
            if not ms:
                continue
            L += ["", "%s:" % title, ""]
            for m in ms:
                extra = m.get("reason") or m.get("detail") or ""
                L.append("- `%s` %s%s: %s%s" % (m["id"], m["desc"],
                                                ((" (known bug: %s)" % m["known"]) if m.get("known") else ""), extra,
                                              ("; reproduce: `%s`" % m["reproduce"]) if st in ("survived", "equivalent") else ""))
    if summary["problems"]:
        L += ["", "## Problems", ""] + ["- " + p for p in summary["problems"]]
    return "\n".join(L) + "\n"


def print_result(c, m, r, eq):
    eqr = eq.get((m.module, m.id))
    tag = r["status"]
    if r["status"] == "survived" and eqr is not None:
        tag = "equivalent (%s)" % eqr
    print("mutate: %s/%s %-22s %s%s" % (c.unit, c.name, m.name, tag,
                                        (": " + r["detail"]) if r.get("detail") else ""), flush=True)


def batches(sel, size):
    """The selection cut into tasks of at most size mutants, in order."""
    return [sel[i:i + size] for i in range(0, len(sel), size)]


def part_path(out, c, k):
    return os.path.join(out, "parts", "%s.%s.%d.json" % (c.unit, c.name, k))


def run_part(job, part, out, B, a, work):
    """One task of a SCHED run (--part K/N): the K-th batch of the
    configuration's selection (of --batch mutants; N must match), the first
    batch after the unmutated bench; the results into OUT/parts/. Exit 0
    when the results are written, 1 when the unmutated bench fails."""
    c, sel, sched = job
    k, n = part
    bs = batches(sel, a.batch)
    if n != len(bs):
        raise BadInput("--part: '%d/%d' but the selection of %s/%s is %d batch(es) of --batch %d" %
                       (k, n, c.unit, c.name, len(bs), a.batch))
    res = dict(unit=c.unit, config=c.name, part=k, of=n, control=None, results={})
    rc = 0
    if k == 1:
        print("mutate: %s/%s: building the unmutated bench" % (c.unit, c.name), flush=True)
        res["control"] = run_one(c, None, out, sched, B, False, a.vopt, a.timeout)
        if res["control"]["status"] != "survived":
            print("mutate: %s/%s: the unmutated configuration does not pass the bench (%s)" %
                  (c.unit, c.name, res["control"].get("detail")), file=sys.stderr)
            rc = 1
    if rc == 0:
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            for m, r in ex.map(lambda m: work(m, c, sched), bs[k - 1]):
                res["results"][m.name] = r
    atomic_write(part_path(out, c, k), json.dumps(res, indent=1) + "\n")
    return rc


def run_tasks(jobs, out, a, problems):
    """A SCHED run: the task list (a batch of mutants a task) through
    scripts/jobs.sh, then every part's results gathered, keyed (unit,
    config, mutant name) and (unit, config, "control")."""
    cmd0 = "scripts/mutate.py"
    if os.environ.get("B"):
        cmd0 = "B=%s %s" % (os.environ["B"], cmd0)
    opts = ["--count", str(a.count), "--seed", str(a.seed), "--batch", str(a.batch), "--jobs", "1"]
    if a.runs:
        opts += ["--runs", a.runs]
    if a.vopt != "-O1":
        opts.append("--vopt=" + a.vopt)  # (a value starting with '-')
    if a.timeout != 900:
        opts += ["--timeout", str(a.timeout)]
    if a.keep:
        opts.append("--keep")
    defaults = dict(known=os.path.join(ROOT, "tb", "mutants-known.txt"),
                    equivalents=os.path.join(ROOT, "tb", "mutants-equivalent.txt"))
    for k, v in defaults.items():
        if getattr(a, k) != v:
            opts += ["--" + k, getattr(a, k)]
    rel = os.path.relpath(out, ROOT)
    shutil.rmtree(os.path.join(out, "parts"), ignore_errors=True)
    tasks = []
    for c, sel, _ in jobs:
        n = len(batches(sel, a.batch))
        print("mutate: %s/%s (%s): %d candidates, %d selected (seed %d); %d task(s)" %
              (c.unit, c.name, c.fname, len(c.cands.list), len(sel), a.seed, n), flush=True)
        for k in range(1, n + 1):
            tasks.append(" ".join([cmd0, "--unit", c.unit, "--config", c.name] +
                                  [shlex.quote(o) for o in opts] + ["--part", "%d/%d" % (k, n), "--out", shlex.quote(rel)]))
    lst = os.path.join(out, "tasks.txt")
    atomic_write(lst, "\n".join(tasks) + "\n")
    print("mutate: %d tasks (SCHED=%s): %s" % (len(tasks), os.environ["SCHED"], os.path.relpath(lst, ROOT)), flush=True)
    # SCHED=local: --jobs tasks at once (unless JOBS says otherwise)
    env = dict(os.environ)
    env.setdefault("JOBS", str(a.jobs))
    r = subprocess.run([os.path.join(ROOT, "scripts", "jobs.sh"), lst, os.path.join(out, "tasks")], cwd=ROOT, env=env)
    if r.returncode != 0:
        problems.append("scripts/jobs.sh: %s (exit %d)" % ("a task failed, see %s" % os.path.relpath(
            os.path.join(out, "tasks", "report.txt"), ROOT) if r.returncode == 1 else "refused the task list",
            r.returncode))
    got = {}
    for c, sel, _ in jobs:
        for k in range(1, len(batches(sel, a.batch)) + 1):
            try:
                with open(part_path(out, c, k)) as f:
                    p = json.load(f)
            except (OSError, ValueError):
                continue
            if p.get("control") is not None:
                got[(c.unit, c.name, "control")] = p["control"]
            for name, res in p.get("results", {}).items():
                got[(c.unit, c.name, name)] = res
    return got


def main():
    ap = argparse.ArgumentParser(description="Mutation testing of the generated RTL (docs/mutation.md).")
    ap.add_argument("--all", action="store_true",
                    help="every committed configuration of every unit (of --unit U[,U...] if given)")
    ap.add_argument("--unit")
    ap.add_argument("--config", help="committed configuration (rtl/<family>/<prefix>_<config>.sv)")
    ap.add_argument("--file", help="mutate this generated file instead (with --list or --apply)")
    ap.add_argument("--count", type=int, help="mutants a configuration (default 60; --list: all)")
    ap.add_argument("--seed", type=int, default=1, help="selection seed (default 1)")
    ap.add_argument("--only", metavar="ID", help="build and run this one mutant")
    ap.add_argument("--list", action="store_true", help="print candidates (the selection with --count)")
    ap.add_argument("--apply", metavar="ID", help="write the mutated files to --out")
    ap.add_argument("--out", help="output directory (default build/mutate)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--target", type=float, default=95.0, help="kill rate in %% (default 95)")
    ap.add_argument("--runs", help="bench runs a mutant: %s,... (stream '-': the default)" % RUN_SYNTAX)
    ap.add_argument("--print-schedule", action="store_true",
                    help="print the bench runs of every unit (of --unit U[,U...]) and exit")
    ap.add_argument("--equivalents", default=os.path.join(ROOT, "tb", "mutants-equivalent.txt"))
    ap.add_argument("--known", default=os.path.join(ROOT, "tb", "mutants-known.txt"),
                    help="known-bug mutants run with every selection ('' for none)")
    ap.add_argument("--vopt", default=os.environ.get("MUTATE_VOPT", "-O1"),
                    help="C++ optimization of the mutant models (default -O1)")
    ap.add_argument("--timeout", type=int, default=900, help="seconds a build or run (default 900)")
    ap.add_argument("--keep", action="store_true", help="keep the Verilated models and benches")
    ap.add_argument("--self-test", action="store_true",
                    help="check the parser on a small hierarchical example and exit")
    ap.add_argument("--batch", type=int, default=10,
                    help="with SCHED set: mutants a task of scripts/jobs.sh (default 10)")
    ap.add_argument("--part", metavar="K/N",
                    help="one task of a SCHED run: the K-th of N batches of the selection, "
                         "its results into OUT/parts/ (the first also runs the unmutated bench)")
    a = ap.parse_args()
    if a.self_test:
        try:
            print("mutate: self-test: %d checks passed" % self_test())
            return 0
        except (RuntimeError, BadInput) as e:
            print("mutate: %s" % e, file=sys.stderr)
            return 1
    B = os.environ.get("B", "build")
    if not os.path.isabs(B):
        B = os.path.join(ROOT, B)

    try:
        if a.count is not None and a.count < 1:
            raise BadInput("--count: '%d' is not a positive number" % a.count)
        if not 1 <= a.jobs <= 16:
            raise BadInput("--jobs: '%d' is not 1..16" % a.jobs)
        if a.batch < 1:
            raise BadInput("--batch: '%d' is not a positive number" % a.batch)
        sched_mode = os.environ.get("SCHED", "")
        if sched_mode not in ("", "local", "slurm"):
            raise BadInput("SCHED: '%s' is not local or slurm" % sched_mode)
        part = None
        if a.part:
            mp = re.fullmatch(r"([1-9][0-9]*)/([1-9][0-9]*)", a.part)
            if not mp or int(mp.group(1)) > int(mp.group(2)):
                raise BadInput("--part: '%s' is not K/N with 1 <= K <= N" % a.part)
            if a.all or a.only or a.list or a.apply or a.file:
                raise BadInput("--part runs one configuration's batch: --unit and --config, no --all, "
                               "--only, --list, --apply or --file")
            part = (int(mp.group(1)), int(mp.group(2)))
        schedule = [parse_run(w, "--runs") for w in a.runs.split(",")] if a.runs else None

        # ---- a single file: list or apply
        if a.file:
            if not (a.list or a.apply):
                raise BadInput("--file needs --list or --apply")
            if not os.path.exists(a.file):
                raise BadInput("--file: '%s' does not exist" % a.file)
            cands = Unit(a.file)
            return list_or_apply(a, cands, cands.dir, cands.top[-1].name)

        units = list_units(B)
        if a.print_schedule:
            want = a.unit.split(",") if a.unit else [x[0] for x in units]
            for w in want:
                if w not in [x[0] for x in units]:
                    raise BadInput("--unit: '%s' is not a unit (cohgen --list=units: %s)" %
                                   (w, ", ".join(x[0] for x in units)))
            streams = list_streams(B)
            for (u, fam, _) in units:
                if u in want:
                    print(schedule_text(u, schedule or unit_schedule(u, fam, streams.get(u))))
            return 0
        listed = list_configs(B)
        if a.all:
            if a.config or a.only or a.apply or a.list:
                raise BadInput("--all runs every configuration: no --config, --only, --apply or --list")
            want = a.unit.split(",") if a.unit else [x[0] for x in units]
            for w in want:
                if w not in [x[0] for x in units]:
                    raise BadInput("--unit: '%s' is not a unit (cohgen --list=units: %s)" %
                                   (w, ", ".join(x[0] for x in units)))
            configs = [Config(u, fam, pre, c) for (u, fam, pre) in units if u in want
                       for c in committed(fam, pre, listed, u)]
            if not configs:
                raise BadInput("no committed configuration found")
        else:
            if not a.unit or not a.config:
                raise BadInput("give --all, or --unit and --config (or --file)")
            match = [x for x in units if x[0] == a.unit]
            if not match:
                raise BadInput("--unit: '%s' is not a unit (cohgen --list=units: %s)" %
                               (a.unit, ", ".join(x[0] for x in units)))
            u, fam, pre = match[0]
            if a.config not in committed(fam, pre, listed, u):
                raise BadInput("--config: '%s' is not a committed configuration of %s (%s)" %
                               (a.config, u, ", ".join(committed(fam, pre, listed, u))))
            configs = [Config(u, fam, pre, a.config)]
            if a.list or a.apply:
                c = configs[0]
                return list_or_apply(a, c.cands, c.src_dir, c.module)
        eq = read_equivalents(a.equivalents)
        known = read_known(a.known) if a.known else []
        if schedule is None:
            streams = list_streams(B)
            scheds = {c.unit: unit_schedule(c.unit, c.family, streams.get(c.unit)) for c in configs}
    except BadInput as e:
        print("mutate: %s" % e, file=sys.stderr)
        return 2

    if a.count is None:
        a.count = 60
    out = a.out or os.path.join(B, "mutate")
    if not os.path.isabs(out):
        out = os.path.join(ROOT, out)
    target = a.target / 100.0
    problems = []
    summary = dict(seed=a.seed, count=a.count, target=target, configs=[], problems=problems)
    jobs = []
    for c in configs:
        sched = schedule or scheds[c.unit]
        if a.only:
            if a.only not in c.cands.by_id:
                print("mutate: --only: '%s' is not a mutant of %s" % (a.only, c.fname), file=sys.stderr)
                return 2
            sel = [c.cands.by_id[a.only]]
        else:
            sel = select(c.cands.list, a.seed, a.count)
            for (mod, mid, bug) in known:
                if mod not in c.cands.modules:
                    continue
                if (mod, mid) not in c.cands.by_key:
                    problems.append("%s: %s %s names no mutant of the current %s (stale entry)" %
                                    (os.path.relpath(a.known, ROOT), mod, mid, c.fname))
                elif c.cands.by_key[(mod, mid)] not in sel:
                    sel.append(c.cands.by_key[(mod, mid)])
        # equivalence entries must name mutants of the current text
        for (mod, mid) in eq:
            if mod in c.cands.modules and (mod, mid) not in c.cands.by_key:
                problems.append("%s: %s %s names no mutant of the current %s (stale entry)" %
                                (os.path.relpath(a.equivalents, ROOT), mod, mid, c.fname))
        jobs.append((c, sel, sched))

    def work(m, c, sched):
        r = run_one(c, m, out, sched, B, a.keep, a.vopt, a.timeout)
        print_result(c, m, r, eq)
        return m, r

    if part:
        return run_part(jobs[0], part, out, B, a, work)
    gathered = None
    if sched_mode and not a.only:
        gathered = run_tasks(jobs, out, a, problems)

    rc = 0
    # on this machine: mutants done of the total on standard error (scripts/progress.py)
    pg = progress.Progress(sum(len(sel) for _, sel, _ in jobs), "mutants") if gathered is None else None
    ndone = 0
    for c, sel, sched in jobs:
        if gathered is None:
            print("mutate: %s/%s (%s): %d candidates, %d selected (seed %d); building the unmutated bench" %
                  (c.unit, c.name, c.fname, len(c.cands.list), len(sel), a.seed), flush=True)
            ctrl = run_one(c, None, out, sched, B, False, a.vopt, a.timeout)
        else:
            ctrl = gathered.get((c.unit, c.name, "control"))
            if ctrl is None:
                problems.append("%s/%s: the task of the unmutated bench left no result" % (c.unit, c.name))
                continue
        if ctrl["status"] != "survived":
            print("mutate: %s/%s: the unmutated configuration does not pass the bench (%s): results "
                  "would mean nothing" % (c.unit, c.name, ctrl.get("detail")), file=sys.stderr)
            if gathered is None:
                pg.end()
                return 1
            problems.append("%s/%s: the unmutated configuration does not pass the bench" % (c.unit, c.name))
            continue
        results = {}
        stext = schedule_text(c.unit, sched)
        if stext not in summary.setdefault("schedules", []):
            summary["schedules"].append(stext)

        if gathered is None:
            with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
                for m, r in ex.map(lambda m, c=c, sched=sched: work(m, c, sched), sel):
                    results[m.name] = r
                    ndone += 1
                    pg.step(ndone)
        else:
            for m in sel:
                r = gathered.get((c.unit, c.name, m.name))
                if r is not None:
                    results[m.name] = r
                    print_result(c, m, r, eq)
            lost = [m for m in sel if m.name not in results]
            if lost:
                problems.append("%s/%s: %d mutant(s) without a result (their task failed): %s" %
                                (c.unit, c.name, len(lost), " ".join(m.name for m in lost)))
                sel = [m for m in sel if m.name in results]
                if not sel:
                    continue
        rows, by_op = [], {}
        cnt = dict(killed=0, survived=0, equivalent=0, invalid=0)
        for m in sel:
            r = results[m.name]
            st = r["status"]
            eqr = eq.get((m.module, m.id))
            row = dict(id=m.name, module=m.module, op=m.op, line=m.line, col=m.col, desc=m.desc, status=st,
                       detail=r.get("detail", ""), build_seconds=r["build_seconds"],
                       run_seconds=r.get("run_seconds", 0.0), reproduce=repro(c, m.name))
            if st == "survived" and eqr is not None:
                row["status"] = st = "equivalent"
                row["reason"] = eqr
            elif eqr is not None and st == "killed":
                problems.append("%s %s is listed as equivalent but the bench kills it (%s)" %
                                (m.module, m.id, r.get("detail")))
            bug = [b for (mod, mid, b) in known if mod == m.module and mid == m.id]
            if bug:
                row["known"] = bug[0]
                if st != "killed":
                    problems.append("%s %s (known bug: %s) is not killed" % (m.module, m.id, bug[0]))
            cnt[st] += 1
            s = by_op.setdefault(m.op, dict(generated=0, killed=0, survived=0, equivalent=0, invalid=0))
            s["generated"] += 1
            s[st] += 1
            rows.append(row)
        valid = cnt["killed"] + cnt["survived"]
        rate = cnt["killed"] / valid if valid else None
        builds = [r["build_seconds"] for r in results.values()]
        runs = [r.get("run_seconds", 0.0) for r in results.values()]
        kn = [r for r in rows if r.get("known")]
        cs = dict(unit=c.unit, config=c.name, module=c.module, file=c.fname,
                  known=len(kn), known_killed=sum(1 for r in kn if r["status"] == "killed"),
                  candidates=len(c.cands.list), generated=len(sel), kill_rate=rate,
                  mean_build_seconds=sum(builds) / len(builds), mean_run_seconds=sum(runs) / len(runs),
                  by_operator=by_op, mutants=rows, **cnt)
        summary["configs"].append(cs)
        print("mutate: %s/%s: %d generated, %d killed, %d survived, %d equivalent, %d invalid; kill rate %s" %
              (c.unit, c.name, len(sel), cnt["killed"], cnt["survived"], cnt["equivalent"], cnt["invalid"],
               "%.1f %%" % (100 * rate) if rate is not None else "-"), flush=True)
        for row in rows:
            if row["status"] == "survived":
                print("mutate:   survivor %s (%s): %s" % (row["id"], row["desc"], row["reproduce"]))
        if cnt["survived"]:
            problems.append("%s/%s: %d survivor(s) not listed as equivalent" % (c.unit, c.name, cnt["survived"]))
        if rate is not None and rate < target and not a.only:
            problems.append("%s/%s: kill rate %.1f %% under the target %.0f %%" %
                            (c.unit, c.name, 100 * rate, 100 * target))
        if rate is None and not a.only:
            problems.append("%s/%s: no valid non-equivalent mutant" % (c.unit, c.name))
    if pg:
        pg.end()
    if problems:
        rc = 1
        for p in problems:
            print("mutate: %s" % p)
    if not a.only:
        atomic_write(os.path.join(out, "report.json"), json.dumps(summary, indent=1) + "\n")
        atomic_write(os.path.join(out, "report.md"), report_md(summary))
        print("mutate: report %s" % os.path.relpath(os.path.join(out, "report.md"), ROOT))
    return rc


# --------------------------------------------------------------------------
# Self-test of the parser on a small hierarchy (make test: mutate-selftest)

SELF_TOP = """`default_nettype none
module t_leaf (
  input  wire [3:0] a_i,
  output wire [3:0] y_o
);
  assign y_o = ~a_i;
endmodule

module t_top #(parameter int W = 4) (
  input  wire         clk_i,
  input  wire [W-1:0] a_i,
  output wire [W-1:0] y_o,
  output wire [W-1:0] z_o,
  output wire         p_o
);
  function automatic logic parity(input logic [W-1:0] v);
    logic r;
    r = 1'b0;
    for (int i = 0; i < W; i++) r = r ^ v[i];
    return r;
  endfunction
  genvar g;
  logic [W-1:0] inv;
  generate
    for (g = 0; g < W - 1; g = g + 1) begin : g_bit
      assign inv[g] = a_i[g] & a_i[g+1];
    end
    if (W > 2) begin : g_top
      assign inv[W-1] = a_i[0];
    end
  endgenerate
  t_leaf u_leaf (.a_i(inv), .y_o(y_o));
  t_sub u_sub (.a_i(a_i), .z_o(z_o));
  assign p_o = parity(a_i) & clk_i;
endmodule
"""
SELF_SUB = """module t_sub (input wire [3:0] a_i, output wire [3:0] z_o);
  assign z_o = a_i + 4'd1;
endmodule
"""


def self_test():
    """Parses a top file with two modules, a generate loop and if, a function
    and an instance of a module in another file; checks the attribution and
    names of mutants, genvar-aware bit-selects, the mutated files, and the
    one-line error on an unsupported construct. Returns the checks made."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        for name, text in (("t_top.sv", SELF_TOP), ("t_sub.sv", SELF_SUB)):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        u = Unit(os.path.join(d, "t_top.sv"), os.path.basename)
        by = {m.name: m for m in u.list}
        checks = [
            ([x[1] for x in u.files] == ["t_top.sv", "t_sub.sv"], "files of the hierarchy"),
            (u.modules == ["t_leaf", "t_top", "t_sub"], "modules in text order, then by instance"),
            (by.get("unary-6-16-0") is not None and by["unary-6-16-0"].module == "t_leaf",
             "a mutant of the first module of the top file keeps its plain id"),
            (by.get("t_sub:const-2-22-0") is not None and by["t_sub:const-2-22-0"].module == "t_sub",
             "a mutant of another file is named <module>:<id>"),
            (by.get("bitsel-26-27-0") is not None and "+1" in by["bitsel-26-27-0"].desc,
             "a_i[g] over genvar g in 0..2 shifted by +1"),
            (by.get("bitsel-26-36-0") is not None and "-1" in by["bitsel-26-36-0"].desc,
             "a_i[g+1] shifted by -1 only (+1 leaves the range at g = 2)"),
            (by.get("const-18-9-0") is not None and by["const-18-9-0"].module == "t_top",
             "a constant in a function body"),
            (by.get("term-19-39-1") is not None, "an operand of ^ in a function's loop"),
            (by.get("stuck-34-10-0") is not None, "an output assigned a function call's value"),
            (by.get("swap-34-28-0") is not None, "an operator after a function call"),
        ]
        m = by.get("t_sub:const-2-22-0")
        if m is not None:
            write_mutant_files(d, "t_top", u, m, os.path.join(d, "out"))
            with open(os.path.join(d, "out", "t_sub.sv")) as f:
                sub = f.read()
            with open(os.path.join(d, "out", "t_top.sv")) as f:
                top = f.read()
            checks.append(("4'd2" in sub and top == SELF_TOP, "only the mutant's file is edited"))
        with open(os.path.join(d, "t_bad.sv"), "w") as f:
            f.write("module t_bad (input wire a_i);\n  task t; endtask\nendmodule\n")
        try:
            Unit(os.path.join(d, "t_bad.sv"), os.path.basename)
            checks.append((False, "a task is a one-line error"))
        except BadInput as e:
            checks.append(("line 2" in str(e), "a task is a one-line error naming its line"))
    bad = [what for ok, what in checks if not ok]
    if bad:
        raise RuntimeError("self-test failed: " + "; ".join(bad))
    return len(checks)


def list_or_apply(a, cands, src_dir, module):
    if a.apply:
        if not a.out:
            raise BadInput("--apply needs --out DIR")
        m = cands.by_id.get(a.apply)
        if m is None:
            raise BadInput("--apply: '%s' is not a mutant of %s" % (a.apply, module))
        write_mutant_files(src_dir, module, cands, m, a.out)
        print("mutate: %s %s (%s) written to %s" % (m.module, m.name, m.desc, a.out))
        return 0
    sel = select(cands.list, a.seed, a.count) if a.count else cands.list
    for m in sel:
        lines, new = cands.text_of(m.file).splitlines(), m.text.splitlines()
        ln = m.line - 1
        print("%s\t%s\t%s\t%s" % (m.name, m.desc, lines[ln].strip(), new[ln].strip() if ln < len(new) else ""))
    return 0


if __name__ == "__main__":
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop_children)
    try:
        sys.exit(main())
    except BadInput as e:
        print("mutate: %s" % e, file=sys.stderr)
        sys.exit(2)
