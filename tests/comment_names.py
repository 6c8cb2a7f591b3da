#!/usr/bin/env python3
"""Comments that point a reader at a name in another file ("binning_tile.glsl's HOT_RANKING",
"src/variant.cpp's decideVariant()") must name something that file still has: a switch or a
function that moves leaves such pointers behind, and nothing else notices. Every source and
documentation file is read; a pointer whose name is a plain lowercase word ("lookback.glsl's
passes") is prose, not a name, and is left alone. Exit 1 lists the stale pointers."""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
SOURCES = (".cpp", ".hpp", ".h", ".c", ".glsl", ".comp", ".cmake", ".py", ".sh", ".md", ".cu", ".txt")
SKIP = {".git", "build", "build-gpu", "build-sanitize", ".gl", "results"}
POINTER = re.compile(r"`?([A-Za-z0-9_./-]+\.(?:glsl|comp|cpp|hpp|h|c|cmake|py|sh|cu))`?'s `?([A-Za-z_][A-Za-z0-9_]*)(\(\)|\*)?`?")
# The journal tells of the code of its day: its pointers may name what has since moved.
HISTORY = {os.path.join("docs", "PERFORMANCE-LOG.md")}


def files():
    for top, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.startswith("build")]
        for n in names:
            if n.endswith(SOURCES):
                yield os.path.join(top, n)


def main():
    paths = list(files())
    by_name = {}
    for p in paths:
        by_name.setdefault(os.path.basename(p), []).append(p)
    texts = {}

    def text(p):
        if p not in texts:
            with open(p, encoding="utf-8", errors="replace") as f:
                texts[p] = f.read()
        return texts[p]

    stale, checked = [], 0
    for p in paths:
        if os.path.relpath(p, ROOT) in HISTORY:
            continue
        for n, line in enumerate(text(p).splitlines(), 1):
            for m in POINTER.finditer(line):
                target, name, call = m.group(1), m.group(2), m.group(3)
                if call != "()" and call != "*" and re.fullmatch(r"[a-z0-9]+", name):
                    continue  # prose: "lookback.glsl's passes"
                candidates = [c for c in by_name.get(os.path.basename(target), [])
                              if c.replace(os.sep, "/").endswith(target.lstrip("./"))]
                if not candidates:
                    continue  # a file outside the tree (a driver's, CUB's): not ours to check
                checked += 1
                word = r"\b" + re.escape(name) + (r"" if call == "*" else r"\b")  # NAME* names a prefix
                if not any(re.search(word, text(c)) for c in candidates):
                    stale.append(f"{os.path.relpath(p, ROOT)}:{n}: {target}'s {name}{call or ''}: not in {target}")
    for s in stale:
        print(s)
    print(f"{checked} pointers checked, {len(stale)} stale")
    if checked == 0:
        print("no pointer found: the pattern no longer matches the comments")
        return 1
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
