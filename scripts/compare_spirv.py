#!/usr/bin/env python3
"""Compares two builds' embedded SPIR-V (build/spirv/*.spv.inc): byte-identical, the same
instructions with other result ids (spirv-dis with ids normalized), or different.

A kernel refactor keeps every module byte-identical or proves its speed (docs/ARCHITECTURE.md,
"Changing a kernel safely"); modules that differ only in ids compile to the same code.
Usage: compare_spirv.py OLD_DIR NEW_DIR"""
import pathlib
import re
import struct
import subprocess
import sys
import tempfile


def instructions(path):
    words = [int(x, 0) for x in path.read_text().replace("\n", "").split(",") if x.strip()]
    with tempfile.NamedTemporaryFile(suffix=".spv") as f:
        f.write(struct.pack("<%dI" % len(words), *words))
        f.flush()
        text = subprocess.run(["spirv-dis", f.name], capture_output=True, text=True, check=True).stdout
    text = re.sub(r"%_[A-Za-z_]+_[0-9]+", "%T", re.sub(r"%[0-9]+", "%N", text))
    return [line.strip() for line in text.splitlines() if "Bound:" not in line]


def main():
    old, new = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    different = 0
    for a in sorted(old.glob("*.spv.inc")):
        b = new / a.name
        if not b.exists():
            print(f"{a.name}: missing in {new}")
            different += 1
        elif a.read_bytes() == b.read_bytes():
            print(f"{a.name}: byte-identical")
        elif instructions(a) == instructions(b):
            print(f"{a.name}: the same instructions, other ids")
        else:
            print(f"{a.name}: DIFFERENT")
            different += 1
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
