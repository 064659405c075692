#!/usr/bin/env python3
"""Lists the `use crate::…` edges between the modules of a crate and the import cycles among them.

Usage: tools/import_cycles.py CRATE_SRC_DIR [--edges]

A module is a file under the crate's `src/` (`a/b.rs` and `a/b/mod.rs` are `a::b`; `lib.rs` and
`main.rs` are the crate root). An edge `a -> b` is a `crate::b…` path written anywhere in `a`'s
file outside its `#[cfg(test)]` tests module (a `use`, or a path used in place), resolved to the
longest module it names. Child modules of a module are folded into it only if `--fold` is given.
Cycles are the strongly connected components with more than one module; each is printed with
one cycle through it. Exit status 1 when there is a cycle.
"""
import os
import re
import sys


def module_of(src, path):
    rel = os.path.relpath(path, src)[:-3]
    parts = rel.split(os.sep)
    if parts[-1] == "mod":
        parts = parts[:-1]
    if parts in (["lib"], ["main"]):
        return ""
    return "::".join(parts)


def strip_tests(text):
    """Drops a trailing `#[cfg(test)] mod … { … }` block (the unit tests) and comments."""
    text = re.sub(r"//[^\n]*", "", text)
    m = re.search(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{", text)
    if m:
        depth, i = 0, m.end() - 1
        while i < len(text):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        text = text[: m.start()] + text[i + 1 :]
    return text


def expand_use(text):
    """Every `crate::…` path, with `use crate::{a, b::{c, d}}` groups expanded."""
    paths = []
    for m in re.finditer(r"\bcrate::", text):
        i = m.end()
        paths.extend(read_tree(text, i, []))
    return paths


def read_tree(text, i, prefix):
    out = []
    m = re.match(r"\s*((?:\w+\s*::\s*)*)(\{|\w+|\*)", text[i:])
    if not m:
        return out
    segs = [s.strip() for s in m.group(1).split("::") if s.strip()]
    head = m.group(2)
    if head == "{":
        j = i + m.end()
        depth, start = 1, j
        items = []
        while j < len(text) and depth:
            c = text[j]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    items.append(text[start:j])
            elif c == "," and depth == 1:
                items.append(text[start:j])
                start = j + 1
            j += 1
        for item in items:
            if item.strip():
                out.extend(read_tree(item, 0, prefix + segs))
    else:
        out.append(prefix + segs + [head])
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show_edges = "--edges" in sys.argv
    src = args[0] if args else "src"
    files = {}
    for root, _, names in os.walk(src):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(root, name)
                files[module_of(src, path)] = path
    modules = set(files)
    edges = {m: set() for m in modules}
    for mod, path in files.items():
        with open(path, encoding="utf-8") as f:
            text = strip_tests(f.read())
        for segs in expand_use(text):
            # The longest module the path names.
            target = None
            for n in range(len(segs), 0, -1):
                cand = "::".join(segs[:n])
                if cand in modules:
                    target = cand
                    break
            if target is None or target == mod or target == "":
                continue
            # A module using its own descendants is structure, not a cycle.
            if target.startswith(mod + "::") and mod:
                continue
            edges[mod].add(target)
    if show_edges:
        for mod in sorted(edges):
            for t in sorted(edges[mod]):
                print(f"{mod or 'crate'} -> {t}")
    cycles = sccs(edges)
    for comp in cycles:
        print(f"cycle among {', '.join(comp)}: e.g. {' -> '.join(one_cycle(edges, comp))}")
    print(f"{len(modules)} modules, {sum(len(v) for v in edges.values())} edges, "
          f"{len(cycles)} import cycles")
    return 1 if cycles else 0


def sccs(edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

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
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def one_cycle(edges, comp):
    """A shortest cycle through the first module of the component (breadth first)."""
    comp_set = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges[v]):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in comp_set and w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


if __name__ == "__main__":
    sys.exit(main())
