#!/usr/bin/env python3
"""Counts the methods of a context type (`impl Cx { … }` blocks of a crate) and fails above a
limit: the table's context stays split by concern (docs/ARCHITECTURE.md, issue 30 point 4).

    python3 tools/context_size.py table/src Cx 15
    python3 tools/context_size.py --selftest
"""
import pathlib
import re
import sys


def methods(source: str, name: str) -> list[str]:
    """The names of the methods of every inherent `impl NAME {` block of `source`."""
    found = []
    for block in re.finditer(rf"^impl {re.escape(name)} \{{\n(.*?)^\}}", source, re.S | re.M):
        found += re.findall(
            r"^    (?:pub(?:\([a-z]+\))? )?(?:async )?fn ([a-z_0-9]+)", block.group(1), re.M
        )
    return found


def selftest() -> None:
    source = (
        "impl Cx {\n    pub(crate) fn a(&self) {}\n    async fn b(&self) {\n        fn inner() {}\n    }\n}\n"
        "impl Other {\n    fn c(&self) {}\n}\n"
        "impl Cx {\n    pub fn d(&self) {}\n}\n"
        "impl Trait for Cx {\n    fn e(&self) {}\n}\n"
    )
    assert methods(source, "Cx") == ["a", "b", "d"], methods(source, "Cx")
    assert methods(source, "Other") == ["c"]
    print("selftest ok")


def main() -> int:
    if sys.argv[1:] == ["--selftest"]:
        selftest()
        return 0
    root, name, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
    counted = []
    for path in sorted(pathlib.Path(root).rglob("*.rs")):
        for method in methods(path.read_text(), name):
            counted.append(f"{path}: {method}")
    print(f"{name}: {len(counted)} methods (at most {limit})")
    if len(counted) > limit:
        print("\n".join(counted), file=sys.stderr)
        print(
            f"{name} has {len(counted)} methods: give the new ones to the narrow context of "
            "their concern (Mover, View, Ledger, Current, Host)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
