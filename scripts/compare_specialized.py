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
import concurrent.futures
import os
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


def specialized(spirv_dir, module, values):
    """The module specialized with `values` {constant_id: value}, optimized, as canonical lines."""
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
    # Frozen bool constants may each keep a declaration of their own: %true, %true_0, ...
    text = re.sub(r"%(true|false)_[0-9]+\b", r"%\1", text)
    # Names and decorations of what folded away differ with the source's names: compare code.
    lines = [l.strip() for l in text.splitlines() if not re.match(r"\s*(OpName|OpMemberName|OpSource|OpLine|OpString)", l)]
    return canonical(lines)


def canonical(lines):
    """What an equivalent program may order otherwise: its declarations before the first function,
    a phi's (value, block) pairs, and a function's variables."""
    first = next((i for i, l in enumerate(lines) if "OpFunction " in l), len(lines))
    out, run = sorted(lines[:first]), []
    lines = lines[first:]
    for line in lines:
        m = re.match(r"(%N = OpPhi \S+) (.*)$", line)
        if m:
            words = m.group(2).split()
            line = m.group(1) + " " + " ".join(sorted(" ".join(words[i:i + 2]) for i in range(0, len(words), 2)))
        if line.endswith(" Function") and "OpVariable" in line:
            run.append(line)
            continue
        out.extend(sorted(run))
        run = []
        out.append(line)
    return out + sorted(run)


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
    pairs = {}
    for (a_line, a_mod, a_vals), (b_line, b_mod, b_vals) in zip(old, new):
        key = ((old_dir, a_mod, tuple(sorted(a_vals.items()))), (new_dir, b_mod, tuple(sorted(b_vals.items()))))
        pairs.setdefault(key, (a_line, b_line))
    jobs = sorted({side for key in pairs for side in key})
    with concurrent.futures.ProcessPoolExecutor(os.cpu_count()) as pool:
        done = dict(zip(jobs, pool.map(specialize_job, jobs)))
    differ = 0
    for (a, b), (a_line, b_line) in pairs.items():
        if done[a] != done[b]:
            differ += 1
            if differ <= 10:
                print(f"DIFFERENT:\n  old {a_line}\n  new {b_line}")
    print(f"{len(pairs)} distinct pipelines, {len(pairs) - differ} the same once specialized, {differ} different")
    return 1 if differ else 0


def specialize_job(job):
    spirv_dir, module, values = job
    return specialized(spirv_dir, module, dict(values))


if __name__ == "__main__":
    sys.exit(main())
