#!/usr/bin/env python3
"""Lists the edges between the modules of a crate and the import cycles among them.

Usage: tools/import_cycles.py CRATE_SRC_DIR [--edges] [--as-written]
       tools/import_cycles.py --selftest

A module is a file under the crate's `src/` (`a/b.rs` and `a/b/mod.rs` are `a::b`; `lib.rs` and
`main.rs` are the crate root). An inline `mod x { … }` block belongs to the file it is written in
(its paths are resolved from `…::x`, so its `super::` is the file's module).

An edge `a -> b` is a path written anywhere in `a`'s file that names `b`: a `use` (groups such as
`use super::{a, b::{c, d}}` expanded, `as` renames and `self` in a group understood) or a path
used in place (`super::foo::bar()`). Paths are read from `crate::` (and `$crate::`), `self::` and
`super::` (any depth, `super::super::…`); each is resolved from the module it is written in to the
longest module file it names; a path to an item that a module re-exports (`pub use`,
`pub(crate) use`, renamed or not: `crate::Thing` for `pub use tables::Thing` in lib.rs) is
followed to the module the item comes from (`--as-written` stops there). Bare paths (`foo::bar` through a name brought in by a `use`) add
nothing: the `use` that brought the name in is the edge. Comments, doc comments, string and char
literals are not read. Items under `#[cfg(test)]` (the unit tests module, a test-only `use` or
function) are not read, and a file declared `#[cfg(test)] mod x;` is left out. `pub(in crate::x)`
is a visibility, not an edge.

A module using itself or one of its own descendants is structure, not an edge: `a` declares and
uses `a::b`, so `a::b` using `super::` items of `a` (an edge `a::b -> a`) is no cycle. Cycles are the strongly connected components
with more than one module; each is printed with one cycle through it. Exit status 1 when there is
a cycle.

`--selftest` builds small synthetic crates in a temporary folder, one per path form, and checks
the edges and cycles found in each.
"""
import os
import re
import sys
import tempfile

# ---------------------------------------------------------------------------------------------
# Reading a file: comments and literals out, then tokens.


def clean(text):
    """The text with comments removed and string/char literals emptied (line breaks kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "/" and nxt == "*":
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        out.append("\n")
                    i += 1
            out.append(" ")
            continue
        # Raw strings: r"…", r#"…"#, br"…" (the prefix must not be the end of an identifier).
        m = re.match(r'b?r(#*)"', text[i:i + 300]) if c in "br" else None
        if m and not (i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
            continue
        if c == "'":
            # A char literal ('a', '\n', '\u{1F600}') or a lifetime ('a, 'static).
            if nxt == "\\":
                j = text.find("'", i + 3)
                if j > 0:
                    out.append("' '")
                    i = j + 1
                    continue
            elif i + 2 < n and text[i + 2] == "'":
                out.append("' '")
                i += 3
                continue
            else:
                # A non-ASCII char literal spans one code point as well; anything else is a
                # lifetime.
                out.append(c)
                i += 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


TOKEN = re.compile(r"\s*(?:(::)|(\$?[A-Za-z_][A-Za-z0-9_]*)|(.))", re.S)


def tokens(text):
    """Identifiers (with `$crate`), `::`, and every other character as a token."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        m = TOKEN.match(text, i)
        if not m or m.end() == i:
            break
        i = m.end()
        tok = m.group(1) or m.group(2) or m.group(3)
        if tok and not tok.isspace():
            out.append(tok)
    return out


# ---------------------------------------------------------------------------------------------
# Walking a file's tokens.

OPEN = {"{": "}", "(": ")", "[": "]"}
SEMI_ENDED = {"use", "const", "static", "type", "let"}
BLOCK_ITEMS = {"fn", "impl", "struct", "enum", "union", "trait", "mod", "macro_rules", "extern"}
ITEM_WORDS = {"pub", "unsafe", "async", "default"}


def attribute_end(toks, i):
    """`toks[i]` is `#` of `#[…]` or `#![…]`: the index after the attribute's closing `]`."""
    j = i + 1
    if j < len(toks) and toks[j] == "!":
        j += 1
    if j >= len(toks) or toks[j] != "[":
        return i + 1
    return balanced_end(toks, j)


def balanced_end(toks, j):
    """`toks[j]` opens a bracket: the index after its match."""
    depth = 0
    while j < len(toks):
        if toks[j] in OPEN:
            depth += 1
        elif toks[j] in ("}", ")", "]"):
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return j


def is_test_cfg(attr):
    """`#[cfg(test)]` or `#[cfg(all(test, …))]`: the item exists in test builds only."""
    text = "".join(attr)
    if text in ("#[cfg(test)]",):
        return True
    m = re.fullmatch(r"#\[cfg\(all\((.*)\)\)\]", text)
    return bool(m) and "test" in m.group(1).split(",")


def item_end(toks, i):
    """The index after the item starting at `toks[i]` (its attributes already skipped)."""
    j = i
    # Visibility and qualifiers.
    while j < len(toks) and (toks[j] in ITEM_WORDS or toks[j] == "("):
        j = balanced_end(toks, j) if toks[j] == "(" else j + 1
    semi_only = j < len(toks) and toks[j] in SEMI_ENDED
    # A field, an argument or a match arm ends at a `,` too.
    comma_ends = j < len(toks) and toks[j] not in SEMI_ENDED | BLOCK_ITEMS
    while j < len(toks):
        t = toks[j]
        if t == ";" or (t == "," and comma_ends):
            return j + 1
        if t == "{" and not semi_only:
            return balanced_end(toks, j)
        if t in OPEN:
            j = balanced_end(toks, j)
            continue
        if t in ("}", ")", "]"):
            return j  # the end of the enclosing block: a statement without `;`
        j += 1
    return j


def read_path(toks, i):
    """`toks[i]` starts a path (`crate`, `self`, `super`, `$crate`): its use trees, each a list
    of segments starting with that word, and the index after it."""
    return read_tree(toks, i, [])


def read_tree(toks, i, prefix):
    """One use tree from `toks[i]` under the segments `prefix`: the flattened paths (lists of
    segments) and the index after the tree. `as` renames are dropped, `self` in a group is the
    group's prefix, a glob `*` names its prefix."""
    segs = list(prefix)
    j = i
    while j < len(toks):
        t = toks[j]
        if t == "{":
            out = []
            j += 1
            while j < len(toks) and toks[j] != "}":
                if toks[j] == ",":
                    j += 1
                    continue
                sub, after = read_tree(toks, j, segs)
                out.extend(sub)
                j = max(after, j + 1)
            return (out or [segs]), j + 1
        if t == "*" or not re.fullmatch(r"\$?[A-Za-z_]\w*", t):
            return [segs], j + (t == "*")
        if not (t == "self" and j == i and prefix):
            segs.append(t)
        j += 1
        if j < len(toks) and toks[j] == "as":
            return [segs], j + 2
        if j < len(toks) and toks[j] == "::":
            j += 1
            continue
        return [segs], j
    return [segs], j


def read_named_tree(toks, i, prefix):
    """One use tree from `toks[i]` as (name it brings in, its path) pairs; a glob brings in no
    name that can be told."""
    out = []
    segs = list(prefix)
    j = i
    while j < len(toks):
        t = toks[j]
        if t == "{":
            j += 1
            while j < len(toks) and toks[j] != "}":
                if toks[j] == ",":
                    j += 1
                    continue
                sub, after = read_named_tree(toks, j, segs)
                out.extend(sub)
                j = max(after, j + 1)
            return out, j + 1
        if t == "*" or not re.fullmatch(r"\$?[A-Za-z_]\w*", t):
            return out, j + (t == "*")
        if not (t == "self" and j == i and prefix):
            segs.append(t)
        j += 1
        if j < len(toks) and toks[j] == "::":
            j += 1
            continue
        name = segs[-1] if segs else None
        if j + 1 < len(toks) and toks[j] == "as":
            name, j = toks[j + 1], j + 2
        if name and name != "_":
            out.append((name, segs))
        return out, j
    return out, j


def resolve(segs, here):
    """The absolute module path (a list) that a path read in module `here` names, or None."""
    if not segs:
        return None
    head, rest = segs[0], segs[1:]
    if head in ("crate", "$crate"):
        base = []
    elif head == "self":
        base = list(here)
    elif head == "super":
        base = list(here[:-1]) if here else None
        while base is not None and rest and rest[0] == "super":
            base = base[:-1] if base else None
            rest = rest[1:]
        if base is None:
            return None
    else:
        return None
    return base + [s for s in rest if s not in ("self", "super", "crate")]


def is_public_use(toks, i):
    """`toks[i]` is `use` after `pub` or `pub(…)`: a re-export."""
    if i >= 1 and toks[i - 1] == "pub":
        return True
    if i >= 1 and toks[i - 1] == ")":
        j = i - 2
        while j >= 0 and toks[j] != "(":
            j -= 1
        return j >= 1 and toks[j - 1] == "pub"
    return False


def scan_file(toks, here):
    """The absolute paths written in a file of module `here` (a list of names), the child
    module names it declares as `#[cfg(test)] mod x;`, and its re-exports (`pub use`): a list of
    (module, name, path as written)."""
    paths = []
    test_children = []
    reexports = []
    # A stack of inline modules: (module path, brace depth where its block closes).
    stack = [(list(here), -1)]
    depth = 0
    i = 0
    pending_test = False
    while i < len(toks):
        t = toks[i]
        if t == "#":
            end = attribute_end(toks, i)
            if is_test_cfg(toks[i:end]):
                pending_test = True
            i = end
            continue
        if pending_test:
            pending_test = False
            # A test-only item: left out; a `mod x;` file is left out too.
            j = i
            while j < len(toks) and toks[j] in ITEM_WORDS | {"("}:
                j = balanced_end(toks, j) if toks[j] == "(" else j + 1
            if j + 2 < len(toks) and toks[j] == "mod" and toks[j + 2] == ";":
                test_children.append(stack[-1][0] + [toks[j + 1]])
            i = item_end(toks, i)
            continue
        if t == "mod" and i + 2 < len(toks) and toks[i + 2] == "{":
            stack.append((stack[-1][0] + [toks[i + 1]], depth))
            depth += 1
            i += 3
            continue
        if t == "use" and is_public_use(toks, i):
            named, _ = read_named_tree(toks, i + 1, [])
            reexports.extend((stack[-1][0], name, segs) for name, segs in named)
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            if len(stack) > 1 and depth == stack[-1][1]:
                stack.pop()
        elif t in ("crate", "self", "super", "$crate") and i + 1 < len(toks) and toks[i + 1] == "::":
            # `pub(in crate::x)` is a visibility.
            if not (i >= 2 and toks[i - 1] == "in" and toks[i - 2] == "("):
                trees, end = read_path(toks, i)
                for segs in trees:
                    full = resolve(segs, stack[-1][0])
                    if full is not None:
                        paths.append(full)
                i = max(end, i + 1)
                continue
        elif t == "use" and i + 1 < len(toks) and toks[i + 1] == "{":
            # `use {crate::a, super::b};`
            trees, end = read_tree(toks, i + 1, [])
            for segs in trees:
                full = resolve(segs, stack[-1][0])
                if full is not None:
                    paths.append(full)
            i = max(end, i + 1)
            continue
        i += 1
    return paths, test_children, reexports


# ---------------------------------------------------------------------------------------------
# The crate's graph.


def module_of(src, path):
    rel = os.path.relpath(path, src)[:-3]
    parts = rel.split(os.sep)
    if parts[-1] == "mod":
        parts = parts[:-1]
    if parts in (["lib"], ["main"]):
        return ""
    return "::".join(parts)


def graph(src, through_reexports=True):
    """The crate's modules and edges: ({module: path}, {module: set of modules}). With
    `through_reexports`, a path that names an item re-exported by a `pub use` (`crate::Thing`
    for `pub use tables::Thing` in lib.rs) is followed to the module the item comes from."""
    files = {}
    for root, _, names in os.walk(src):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(root, name)
                files[module_of(src, path)] = path
    scanned = {}
    written_reexports = []
    test_only = set()
    for mod, path in files.items():
        with open(path, encoding="utf-8") as f:
            toks = tokens(clean(f.read()))
        here = mod.split("::") if mod else []
        paths, test_children, reexports = scan_file(toks, here)
        scanned[mod] = paths
        written_reexports.extend(reexports)
        test_only.update("::".join(c) for c in test_children)

    # A test-only file and the files under it are left out.
    def is_test(mod):
        return any(mod == t or mod.startswith(t + "::") for t in test_only)

    modules = {m for m in files if not is_test(m)}

    def owner(full):
        """How many leading segments of `full` name a module file (0: the crate root)."""
        for n in range(len(full), 0, -1):
            if "::".join(full[:n]) in modules:
                return n
        return 0

    reexported = {}
    if through_reexports:
        for where, name, segs in written_reexports:
            if segs[0] in ("crate", "$crate", "self", "super"):
                full = resolve(segs, where)
            elif "::".join(where + segs[:1]) in modules:
                full = where + segs  # a child module named without `self::`
            else:
                full = None  # another crate
            if full is not None:
                reexported[("::".join(where), name)] = full

    def follow(full):
        for _ in range(16):
            n = owner(full)
            key = ("::".join(full[:n]), full[n] if n < len(full) else None)
            if key not in reexported:
                break
            new = reexported[key] + full[n + 1:]
            if new == full:
                break
            full = new
        return full

    edges = {m: set() for m in modules}
    for mod in modules:
        for full in scanned[mod]:
            if through_reexports:
                full = follow(full)
            n = owner(full)
            target = "::".join(full[:n]) if n else None
            if target is None or target == mod:
                continue
            if mod and target.startswith(mod + "::"):
                continue
            if not mod:
                continue
            edges[mod].add(target)
    return {m: files[m] for m in modules}, edges


def sccs(edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
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


def report(src, show_edges=False, through_reexports=True, out=sys.stdout):
    """Prints the cycles (and the edges if asked); returns the number of cycles."""
    modules, edges = graph(src, through_reexports)
    if show_edges:
        for mod in sorted(edges):
            for t in sorted(edges[mod]):
                print(f"{mod or 'crate'} -> {t}", file=out)
    cycles = sccs(edges)
    for comp in cycles:
        inner = sorted(f"{a} -> {b}" for a in comp for b in edges[a] if b in comp)
        print(f"cycle among {', '.join(comp)}: e.g. {' -> '.join(one_cycle(edges, comp))}"
              f" (edges inside: {'; '.join(inner)})", file=out)
    print(f"{src}: {len(modules)} modules, {sum(len(v) for v in edges.values())} edges, "
          f"{len(cycles)} import cycles", file=out)
    return len(cycles)


# ---------------------------------------------------------------------------------------------
# Self-test.

SELFTEST_CRATES = [
    # (name, {file: text}, expected edges {(from, to)}, expected number of cycles)
    ("crate paths", {
        "lib.rs": "mod a; mod b;",
        "a.rs": "use crate::b::Thing;\npub fn f() {}",
        "b.rs": "pub struct Thing;\nfn g() { crate::a::f(); }",
    }, {("a", "b"), ("b", "a")}, 1),
    ("super between siblings (the outbox <-> play shape)", {
        "lib.rs": "mod discord;",
        "discord/mod.rs": "mod outbox; mod play; pub struct Shared;",
        "discord/outbox.rs": "use super::play::Origin;\nuse super::Shared;",
        "discord/play.rs": "use super::outbox::Parcel;",
    }, {("discord::outbox", "discord"), ("discord::outbox", "discord::play"),
        ("discord::play", "discord::outbox")}, 1),
    ("super::super and self", {
        "lib.rs": "mod x; mod y;",
        "x/mod.rs": "mod deep; mod near; use self::near::N;",
        "x/deep.rs": "use super::super::y::Y;",
        "x/near.rs": "pub struct N;",
        "y.rs": "pub struct Y; fn f() { let _ = self::Y; }",
    }, {("x::deep", "y")}, 0),
    ("grouped imports, nested, renamed, with self", {
        "lib.rs": "mod a; mod b; mod c; mod d;",
        "a.rs": "use crate::{b::{self, B}, c::{C as Sea, inner::*}};",
        "b.rs": "pub struct B;",
        "c.rs": "pub struct C; pub mod inner { pub struct I; }",
        "d.rs": "use super::{a, b::B};\nuse {crate::c::C};",
    }, {("a", "b"), ("a", "c"), ("d", "a"), ("d", "b"), ("d", "c")}, 0),
    ("paths used in place, turbofish, generics", {
        "lib.rs": "mod a; mod b;",
        "a.rs": "fn f() { let v = super::b::make::<u8>(); let w: crate::b::W<u8> = todo!(); }",
        "b.rs": "pub fn make<T>() {} pub struct W<T>(T);",
    }, {("a", "b")}, 0),
    ("inline module blocks resolve super from inside", {
        "lib.rs": "mod a; mod b;",
        "a.rs": "pub mod inner {\n    use super::super::b::B;\n    pub fn f() { super::g(); }\n}\nfn g() {}",
        "b.rs": "pub struct B; fn h() { crate::a::inner::f(); }",
    }, {("a", "b"), ("b", "a")}, 1),
    ("test modules and test-only items are left out", {
        "lib.rs": "mod a; mod b;",
        "a.rs": "use crate::b::B;\n#[cfg(test)]\nmod tests;\n",
        "a/tests.rs": "use crate::b::B;",
        "b.rs": ("pub struct B;\n#[cfg(test)]\nuse crate::a::X;\n"
                 "#[cfg(test)]\nfn helper() { crate::a::f(); }\n"
                 "#[cfg(all(test, unix))]\nfn helper2() { crate::a::f(); }\n"
                 "#[cfg(test)]\nmod tests {\n    use super::super::a::f;\n    fn t() { crate::a::f(); }\n}\n"
                 "fn after() {}"),
    }, {("a", "b")}, 0),
    ("comments, strings, chars, visibilities are not paths", {
        "lib.rs": "mod a; mod b;",
        "a.rs": ("// use crate::b::B;\n/* crate::b::B /* nested */ crate::b::B */\n"
                 "/// [`super::b::B`]\nconst S: &str = \"crate::b::B // not a comment\";\n"
                 "const R: &str = r#\"super::b::B\"#; const C: char = '\"'; fn l<'a>(x: &'a str) {}\n"
                 "pub(in crate::b) struct V;\nfn after() {}"),
        "b.rs": "pub struct B; fn f() { crate::a::after(); }",
    }, {("b", "a")}, 0),
    ("a module using its parent or children is structure", {
        "lib.rs": "mod p;",
        "p/mod.rs": "mod c; use self::c::C; pub struct P;",
        "p/c.rs": "use super::P; pub struct C;",
    }, {("p::c", "p")}, 0),
    ("re-exports are followed to where the item comes from", {
        "lib.rs": "mod a; mod b; mod d;\npub use b::Thing;\npub(crate) use d::{inner::Deep as Renamed};",
        "a.rs": "use crate::Thing;\npub fn f() {}",
        "b.rs": "pub struct Thing; fn g() { crate::a::f(); }",
        "d/mod.rs": "pub mod inner; pub(crate) use self::inner::Deep;",
        "d/inner.rs": "pub struct Deep; fn h() { let _ = crate::Renamed; let _ = super::super::a::f; }",
    }, {("a", "b"), ("b", "a"), ("d::inner", "a")}, 1),
    ("a re-export through a parent module hides no sibling edge", {
        "lib.rs": "mod discord;",
        "discord/mod.rs": "mod outbox; mod play; pub(crate) use outbox::Parcel;",
        "discord/outbox.rs": "use super::play::After; pub struct Parcel;",
        "discord/play.rs": "use super::Parcel; pub struct After;",
    }, {("discord::outbox", "discord::play"), ("discord::play", "discord::outbox")}, 1),
    ("a circle of three through super and crate", {
        "lib.rs": "mod a; mod b; mod c;",
        "a.rs": "use super::b::B; pub struct A;",
        "b.rs": "use crate::c::C; pub struct B;",
        "c.rs": "pub struct C; fn f() { super::a::A; }",
    }, {("a", "b"), ("b", "c"), ("c", "a")}, 1),
]


def selftest():
    failures = 0
    for name, files, want_edges, want_cycles in SELFTEST_CRATES:
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "src")
            for rel, text in files.items():
                path = os.path.join(src, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
            _, edges = graph(src)
            got = {(a, b) for a, bs in edges.items() for b in bs}
            cycles = len(sccs(edges))
            if got != want_edges or cycles != want_cycles:
                failures += 1
                print(f"FAIL {name}: edges {sorted(got)} (want {sorted(want_edges)}), "
                      f"{cycles} cycles (want {want_cycles})")
    print(f"import_cycles self-test: {len(SELFTEST_CRATES) - failures} of "
          f"{len(SELFTEST_CRATES)} crates as expected")
    return 1 if failures else 0


def main():
    if "--selftest" in sys.argv:
        return selftest()
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    src = args[0] if args else "src"
    return 1 if report(src, "--edges" in sys.argv, "--as-written" not in sys.argv) else 0


if __name__ == "__main__":
    sys.exit(main())
