#!/usr/bin/env python3
"""Turns a vksort_bench CSV and a vksort_cub_bench CSV from one GPU run into a markdown table and a
PNG plot (GKeys/s against n: vksort, CUB, and the copy ceiling at 36 bytes per key).

usage: bench_report.py VKSORT.csv CUB.csv [--png OUT.png] [--md OUT.md]
Without --md the table goes to stdout. The plot needs matplotlib (Debian: python3-matplotlib);
the table does not.

Rows are CSV lines impl,mode,dist,n,median_ms,min_ms,gkeys_per_s,check ('#' lines are comments).
vksort's CSV holds impl "vksort" (or vksort-rts / vksort-indirect) rows and impl "copy" rows: a
device copy of the sort's bytes (keys, and values) at the same n, the bandwidth ceiling; and impl
"read" rows, a read of the keys' bytes alone (the histogram's ceiling), which the report leaves out.
CUB's CSV holds impl "cub-i32" rows (num_items an int) and "cub-i64" rows (int64_t), or older
"cub" rows; the reference is CUB at its best: per row the faster of its rows.
Speed is CUB's best median time over ours: above 1.0 vksort is faster. "Copy %" is the bandwidth the
sort would need at 36 bytes moved per 32-bit key (scaled by the element width: 9 reads and
writes of the keys and values, as Onesweep's passes and histogram do) as a share of the copy's.
"""
import csv
import math
import sys
from collections import defaultdict

# Bytes of one element (key and value) per full-width mode: scales the 36-bytes-per-key
# accounting (bit-range modes run fewer passes: no share for them).
ELEMENT_BYTES = {'keys32': 4, 'keysf32': 4, 'pairs32': 8, 'keys64': 8, 'pairs64v32': 12, 'pairs64v64': 16}
BYTES_PER_KEY32 = 36  # the accounting for a 4-pass 32-bit sort (CUB moves about this)


def load(path):
    """{impl: {(mode, dist, n): (median_ms, check)}}"""
    rows = defaultdict(dict)
    with open(path) as f:
        for r in csv.reader(line for line in f if line.strip() and not line.startswith('#')):
            if len(r) < 8:
                continue
            rows[r[0]][(r[1], r[2], int(r[3]))] = (float(r[4]), r[7])
    return rows


def sort_impl(rows):
    impls = [i for i in rows if i not in ('copy', 'read')]
    if len(impls) != 1:
        sys.exit(f'expected one sort impl, found {impls}')
    return impls[0]


def cub_best(cub):
    """{(mode, dist, n): (median_ms, check, times by impl)}: per row the fastest of CUB's impls."""
    best = {}
    for impl, rows in cub.items():
        for k, (ms, ok) in rows.items():
            have = best.get(k)
            times = dict(have[2]) if have else {}
            times[impl] = ms
            best[k] = (ms, ok, times) if not have or ms < have[0] else (have[0], have[1], times)
    return best


def copy_share(mode, n, sort_ms, copy_ms):
    """Bandwidth the sort needs at 36 B per 32-bit key, as a share of the copy's (reads + writes)."""
    element = ELEMENT_BYTES.get(mode)
    if element is None or not copy_ms:
        return None
    needed = BYTES_PER_KEY32 * element / 4 * n / (sort_ms * 1e-3)
    copy = 2 * element * n / (copy_ms * 1e-3)
    return needed / copy


def table(ours, cub):
    impl = sort_impl(ours)
    mine, copies, theirs = ours[impl], ours.get('copy', {}), cub_best(cub)
    keys = sorted(set(mine) & set(theirs), key=lambda k: (k[0], k[1] != 'q1', k[1], k[2]))
    out = ['| mode | dist | n | vksort ms | CUB i32 ms | CUB i64 ms | speed vs CUB\'s best | vksort GKeys/s | '
           'copy % (vksort / CUB) | check |',
           '|---|---|---:|---:|---:|---:|---:|---:|---:|---|']
    ratios = defaultdict(list)
    for k in keys:
        (ms, ok), (cub_ms, cub_ok, times) = mine[k], theirs[k]
        by_type = [times.get('cub-i32', times.get('cub')), times.get('cub-i64')]
        cells = ' | '.join(f'{t:.4f}' if t is not None else '-' for t in by_type)
        ratio = cub_ms / ms
        ratios[k[0]].append(ratio)
        copy = copies.get(k)
        ours_share = copy_share(k[0], k[2], ms, copy[0]) if copy else None
        cub_share = copy_share(k[0], k[2], cub_ms, copy[0]) if copy else None
        share = f'{ours_share:.0%} / {cub_share:.0%}' if ours_share is not None else '-'
        out.append(f'| {k[0]} | {k[1]} | {k[2]} | {ms:.4f} | {cells} | {ratio:.2f} | '
                   f'{k[2] / ms * 1e-6:.2f} | {share} | {ok}/{cub_ok} |')
    out.append('')
    for mode, rs in sorted(ratios.items()):
        g = math.exp(sum(math.log(r) for r in rs) / len(rs))
        out.append(f'- {mode}: geometric mean speed vs CUB\'s best {g:.2f} over {len(rs)} rows '
                   f'(min {min(rs):.2f}, max {max(rs):.2f})')
    return '\n'.join(out) + '\n'


def plot(ours, cub, path):
    """GKeys/s against n for uniform keys, one panel per mode: vksort, CUB, and the copy ceiling
    expressed as the sort rate a 36-bytes-per-key sort would reach at the copy's bandwidth."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    impl = sort_impl(ours)
    best = {k: (ms, ok) for k, (ms, ok, _) in cub_best(cub).items()}

    def rates(rows, mode, scale=lambda n: 1.0):
        pts = sorted((k[2], k[2] / ms * 1e-6 * scale(k[2])) for k, (ms, _) in rows.items() if k[0] == mode and k[1] == 'q1')
        return [p[0] for p in pts], [p[1] for p in pts]

    modes = sorted({k[0] for k in ours[impl]})
    cols = min(3, len(modes))
    rows_n = (len(modes) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(4.6 * cols, 3.4 * rows_n), squeeze=False)
    for ax in axes.flat[len(modes):]:
        ax.set_visible(False)
    for ax, mode in zip(axes.flat, modes):
        ax.plot(*rates(ours[impl], mode), '-o', markersize=3, label=impl)
        ax.plot(*rates(best, mode), '-s', markersize=3, label="CUB (faster offset type)")
        element = ELEMENT_BYTES.get(mode)
        if element and ours.get('copy'):
            # copy moves 2 * element bytes per key; the sort's budget is 36 * element / 4
            ax.plot(*rates(ours['copy'], mode, lambda n: 2 * element / (BYTES_PER_KEY32 * element / 4)), ':',
                    label='copy bandwidth at 36 B/key')
        ax.set_xscale('log', base=2)
        ax.set_title(mode)
        ax.set_xlabel('n')
        ax.set_ylabel('GKeys/s (uniform keys)')
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv):
    args = [a for a in argv[1:]]
    opts = {}
    for flag in ('--png', '--md'):
        if flag in args:
            i = args.index(flag)
            opts[flag] = args[i + 1]
            del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    ours, cub = load(args[0]), load(args[1])
    md = table(ours, cub)
    if '--md' in opts:
        with open(opts['--md'], 'w') as f:
            f.write(md)
    else:
        sys.stdout.write(md)
    if '--png' in opts:
        plot(ours, cub, opts['--png'])


if __name__ == '__main__':
    main(sys.argv)
