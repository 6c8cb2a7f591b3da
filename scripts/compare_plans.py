#!/usr/bin/env python3
"""Compares two vksort_plan_dump outputs by what the kernels compute from their specialization.

The speed gate of a refactor (docs/ARCHITECTURE.md, "Changing a kernel safely"): every pipeline
of every vendor table must keep its module and the constants it declares. Constants that changed
form compare by what the kernel ends up with: RIDING_VALUES (22; effective with VALUE_WORDS == 1
and one round) and VALUE_HANDLING (30) as whether values ride; ATOMIC_RANKING and RANK_FIRST (24,
25) and RANKING (29) as the ranking's name.
Usage: compare_plans.py OLD NEW"""
import sys

RANKINGS = ["ballots", "partitioned", "atomics", "atomics-rank-first"]


def effective(line):
    head, _, rest = line.partition(": ")
    words = rest.split()
    if not words or "=" in words[0]:
        return line
    spec = dict(w.split("=") for w in words[1:] if "=" in w and w.split("=")[0].isdigit())
    named = {}
    if "22" in spec:  # before VALUE_HANDLING
        named["riding"] = str(int(spec.pop("22") == "1" and spec.get("4") == "1" and spec.get("15", "1") == "1"))
    if "30" in spec:
        named["riding"] = str(int(spec.pop("30") == "2"))
    if "24" in spec:  # before RANKING
        atomic, first = spec.pop("24") == "1", spec.pop("25", "0") == "1"
        named["ranking"] = "partitioned" if "partitioned" in words[0] else RANKINGS[2 + first] if atomic else "ballots"
    if "29" in spec:
        named["ranking"] = RANKINGS[int(spec.pop("29"))]
    others = [w for w in words[1:] if "=" in w and not w.split("=")[0].isdigit()]
    return head + ": " + " ".join([words[0]] + others + [k + "=" + spec[k] for k in sorted(spec, key=int)] +
                                  [k + "=" + named[k] for k in sorted(named)])


def main():
    old = [effective(l.rstrip("\n")) for l in open(sys.argv[1])]
    new = [effective(l.rstrip("\n")) for l in open(sys.argv[2])]
    differ = [(i, a, b) for i, (a, b) in enumerate(zip(old, new)) if a != b]
    for i, a, b in differ[:20]:
        print(f"line {i + 1}:\n  old {a}\n  new {b}")
    if len(old) != len(new):
        print(f"{len(old)} lines against {len(new)}")
    print("same" if not differ and len(old) == len(new) else f"{len(differ)} lines differ")
    return 0 if not differ and len(old) == len(new) else 1


if __name__ == "__main__":
    sys.exit(main())
