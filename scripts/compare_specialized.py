#!/usr/bin/env python3
"""Compares two builds' pipelines as the driver gets them: each module specialized with the
constants its pipeline is built with, then optimized, instruction by instruction.

Where a refactor changes how the kernels declare their switches (a bool constant becoming an enum
one, a condition moved), the modules differ (compare_spirv.py) though every pipeline computes the
same thing. This script takes every pipeline of every vendor table from two vksort_plan_dump
outputs, sets each module's specialization constants to that pipeline's values (spirv-opt
--set-spec-const-default-value, --freeze-spec-const), folds and optimizes (-O), and compares the
results with result ids normalized: "the same" means the driver is handed the same program.
Usage: compare_specialized.py OLD_SPIRV_DIR OLD_PLAN NEW_SPIRV_DIR NEW_PLAN"""
import pathlib
import re
import subprocess
import sys
import tempfile


def spec_types(spv):
    """constant_id -> 'bool' or 'int' for the module's specialization constants."""
    text = subprocess.run(["spirv-dis", str(spv)], capture_output=True, text=True, check=True).stdout
    ids = dict(re.findall(r"OpDecorate (%\w+) SpecId (\d+)", text))
    bools = set(re.findall(r"(%\w+) = OpSpecConstant(?:True|False)", text))
    return {int(cid): ("bool" if name in bools else "int") for name, cid in ids.items()}


def specialized(spirv_dir, module, values, cache):
    key = (str(spirv_dir), module, tuple(sorted(values.items())))
    if key in cache:
        return cache[key]
    spv = pathlib.Path(spirv_dir) / (module + ".comp.spv")
    types = spec_types(spv)
    pairs = []
    for cid, value in sorted(values.items()):
        if cid in types:
            pairs.append(f"{cid}:{('true' if value else 'false') if types[cid] == 'bool' else value}")
    with tempfile.NamedTemporaryFile(suffix=".spv") as out:
        setting = ["--set-spec-const-default-value", " ".join(pairs)] if pairs else []
        subprocess.run(["spirv-opt", *setting, "--freeze-spec-const", "--fold-spec-const-op-composite", "-O", str(spv),
                        "-o", out.name], check=True)
        text = subprocess.run(["spirv-dis", "--no-header", out.name], capture_output=True, text=True, check=True).stdout
    text = re.sub(r"%_[A-Za-z_]+_[0-9]+", "%T", re.sub(r"%[0-9]+", "%N", text))
    # Names and decorations of what folded away differ with the source's names: compare code.
    lines = [l.strip() for l in text.splitlines() if not re.match(r"\s*(OpName|OpMemberName|OpSource|OpLine|OpString)", l)]
    cache[key] = lines
    return lines


def pipelines(plan):
    """(line, module, {constant_id: value}) for each pipeline line of a plan dump."""
    out = []
    for line in open(plan):
        m = re.match(r"  (\w+): (\w+)(.*)$", line.rstrip("\n"))
        if not m:
            continue
        values = {int(a): int(b) for a, b in re.findall(r"\b(\d+)=(\d+)", m.group(3))}
        out.append((line.strip(), m.group(2), values))
    return out


def main():
    old_dir, old_plan, new_dir, new_plan = sys.argv[1:5]
    old, new = pipelines(old_plan), pipelines(new_plan)
    if len(old) != len(new):
        print(f"the plans list {len(old)} and {len(new)} pipelines")
        return 1
    cache, seen, differ = {}, set(), 0
    for (a_line, a_mod, a_vals), (b_line, b_mod, b_vals) in zip(old, new):
        key = (a_mod, tuple(sorted(a_vals.items())), b_mod, tuple(sorted(b_vals.items())))
        if key in seen:
            continue
        seen.add(key)
        if specialized(old_dir, a_mod, a_vals, cache) != specialized(new_dir, b_mod, b_vals, cache):
            differ += 1
            if differ <= 10:
                print(f"DIFFERENT:\n  old {a_line}\n  new {b_line}")
    print(f"{len(seen)} distinct pipelines, {len(seen) - differ} the same once specialized, {differ} different")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
