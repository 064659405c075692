#!/usr/bin/env python3
"""Checks that the workspace's `rust-version` is at least every locked crate's.

Reads `cargo metadata --locked` (no network): each package of the resolved graph states the
oldest Rust it builds with; the workspace's own packages must not claim an older one, or a
toolchain the README accepts would fail to build the lock. Exit 0 when they agree, 1 when a
locked crate needs a newer Rust (it names them), 2 when cargo metadata fails.

    python3 tools/rust_version.py
"""

import json
import subprocess
import sys


def version(text):
    return tuple(int(part) for part in text.split(".")) + (0,) * (3 - len(text.split(".")))


def main():
    try:
        out = subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--locked"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"cargo metadata failed: {error}", file=sys.stderr)
        return 2
    meta = json.loads(out)
    resolved = {node["id"] for node in meta["resolve"]["nodes"]}
    members = set(meta["workspace_members"])
    ours = {
        p["name"]: p.get("rust_version")
        for p in meta["packages"]
        if p["id"] in members
    }
    needs = sorted(
        (
            (version(p["rust_version"]), p["name"], p["version"], p["rust_version"])
            for p in meta["packages"]
            if p["id"] in resolved and p["id"] not in members and p.get("rust_version")
        ),
        reverse=True,
    )
    if not needs:
        print("no locked crate states a rust-version")
        return 0
    newest = needs[0][0]
    bad = {name: stated for name, stated in ours.items() if stated is None or version(stated) < newest}
    if bad:
        floor = min((version(s) for s in bad.values() if s), default=(0, 0, 0))
        culprits = ", ".join(f"{n} {v} (rust {r})" for key, n, v, r in needs if key > floor)
        print(
            f"rust-version too old or missing in {', '.join(sorted(bad))} "
            f"(stated: {', '.join(sorted({str(s) for s in bad.values()}))}); "
            f"the lock needs {needs[0][3]}: {culprits}",
            file=sys.stderr,
        )
        return 1
    stated = sorted(set(ours.values()))
    print(f"rust-version {', '.join(stated)} covers the lock (newest need: {needs[0][1]} {needs[0][2]}, rust {needs[0][3]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
