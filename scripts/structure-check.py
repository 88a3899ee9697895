#!/usr/bin/env python3
"""Checks two rules of DEVELOPERS.md for every crate of the workspace: no import cycle
between modules, and no Rust source file (tests, examples and benches included) over
800 lines.

A module "imports" another when its code (comments and doc links excluded) names a
path `crate::a::b`, `super::x` or `self::x` that resolves to that module or an item in
it. References between a module and its own ancestors or descendants are structure,
not imports, and are not counted. Exits 1 and prints every cycle (each strongly
connected set of modules) and every file over the limit; prints nothing and exits 0
when both rules hold.

Usage: scripts/structure-check.py [CRATE_DIR ...]   (default: every crate with src/)
"""
import os
import re
import sys


def modules(src):
    """Maps module path tuples to file paths (lib.rs/main.rs = the root, ())."""
    out = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith('.rs'):
                continue
            rel = os.path.relpath(os.path.join(root, f), src)[:-3].split(os.sep)
            if rel in (['lib'], ['main']):
                continue
            if rel[-1] == 'mod':
                rel = rel[:-1]
            if rel[0] in ('bin',) or (len(rel) == 1 and rel[0] == 'main'):
                continue
            out[tuple(rel)] = os.path.join(root, f)
    return out


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def paths(text):
    """Every path of the form crate::a::b / super::a / self::a, use-groups expanded."""
    found = []
    for m in re.finditer(r'\b(crate|super|self)((?:::\w+)+)(::\{([^;]*?)\})?', text):
        head = [m.group(1)] + m.group(2).strip(':').split('::')
        found.append(head)
        if m.group(4):
            for part in re.split(r'[,{}\s]+', m.group(4)):
                if re.match(r'^\w+$', part):
                    found.append(head + [part])
    return found


def resolve(cur, path, mods):
    """The module a path from module `cur` lands in (the longest module prefix)."""
    first, rest = path[0], path[1:]
    if first == 'crate':
        base = ()
    elif first == 'self':
        base = cur
    else:  # super, super::super...
        base = cur[:-1]
        while rest and rest[0] == 'super':
            base, rest = base[:-1], rest[1:]
    full = base + tuple(rest)
    for n in range(len(full), 0, -1):
        if full[:n] in mods:
            return full[:n]
    return None


def related(a, b):
    return a[:len(b)] == b or b[:len(a)] == a


def sccs(nodes, edges):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def crate_cycles(crate):
    src = os.path.join(crate, 'src')
    mods = modules(src)
    edges = {}
    for mod, path in mods.items():
        text = strip_comments(open(path, encoding='utf-8').read())
        for p in paths(text):
            target = resolve(mod, p, mods)
            if target and not related(mod, target):
                edges.setdefault(mod, set()).add(target)
    cycles = []
    for comp in sccs(list(mods), edges):
        if len(comp) > 1:
            names = sorted('::'.join(m) for m in comp)
            detail = sorted(
                f"{'::'.join(a)} -> {'::'.join(b)}"
                for a in comp for b in edges.get(a, ()) if b in comp)
            cycles.append((names, detail))
    return cycles


MAX_LINES = 800


def long_files(crate):
    out = []
    for root, dirs, files in os.walk(crate):
        dirs[:] = [d for d in dirs if d != 'target']
        for f in files:
            if f.endswith('.rs'):
                path = os.path.join(root, f)
                with open(path, encoding='utf-8') as fh:
                    n = sum(1 for _ in fh)
                if n > MAX_LINES:
                    out.append((path, n))
    return sorted(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    crates = sys.argv[1:] or sorted(
        os.path.join(root, d) for d in os.listdir(root)
        if os.path.isdir(os.path.join(root, d, 'src')))
    bad = False
    for crate in crates:
        for names, detail in crate_cycles(crate):
            bad = True
            print(f"{os.path.basename(crate)}: cycle among {', '.join(names)}")
            for d in detail:
                print(f"    {d}")
        for path, n in long_files(crate):
            bad = True
            print(f"{os.path.relpath(path, root)}: {n} lines (at most {MAX_LINES})")
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
