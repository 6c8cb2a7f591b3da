#!/usr/bin/env python3
"""scripts/bench_report.py's table: speeds against CUB at its best (the faster of its two offset
types per row), the copy share, the geometric means."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'scripts'))
import bench_report  # noqa: E402

OURS = """# a comment line
# impl,mode,dist,n,median_ms,min_ms,gkeys_per_s,check
vksort,keys32,q1,1048576,0.1800,0.17,5.83,ok
copy,keys32,q1,1048576,0.0100,0.01,104.8,ok
read,keys32,q1,1048576,0.0030,0.003,350.0,ok
vksort,keys32,q4,1048576,0.1000,0.09,10.4,ok
vksort,pairs32,q1,1024,0.0400,0.04,0.03,ok
"""
CUB = """cub-i32,keys32,q1,1048576,0.1200,0.1,10.4,ok
cub-i64,keys32,q1,1048576,0.1000,0.1,10.4,ok
cub-i32,keys32,q4,1048576,0.1000,0.1,10.4,ok
cub-i64,keys32,q4,1048576,0.1100,0.1,10.4,ok
cub-i64,pairs32,q1,1024,0.0100,0.01,0.1,ok
cub-i64,keys64,q1,1024,0.0100,0.01,0.1,ok
"""
OLD_CUB = "cub,keys32,q1,1048576,0.0900,0.09,11.6,ok\n"


def main():
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, text in (('ours.csv', OURS), ('cub.csv', CUB), ('old.csv', OLD_CUB)):
            paths.append(os.path.join(d, name))
            with open(paths[-1], 'w') as f:
                f.write(text)
        md = bench_report.table(bench_report.load(paths[0]), bench_report.load(paths[1]))
        old = bench_report.table(bench_report.load(paths[0]), bench_report.load(paths[2]))
    lines = md.splitlines()
    # keys32 q1: CUB's best is i64's 0.1 ms (i32 0.12) / ours 0.18 ms = 0.56; 36 B/key over
    # 0.18 ms against 8 B/key over 0.01 ms: (36 / 0.18) / (8 / 0.01) = 25%; CUB's (36 / 0.1) / 800 = 45%.
    row = next(l for l in lines if l.startswith('| keys32 | q1 |'))
    assert '| 0.1200 | 0.1000 | 0.56 |' in row and '25% / 45%' in row, row
    # keys32 q4: there i32 is the faster, 0.1 ms.
    assert any(l.startswith('| keys32 | q4 |') and '| 0.1000 | 0.1100 | 1.00 |' in l for l in lines), md
    # A CSV of the older form (impl "cub", one offset type) still gives a table.
    assert any(l.startswith('| keys32 | q1 |') and '| 0.0900 | - | 0.50 |' in l for l in old.splitlines()), old
    # Rows only where both ran (no keys64); no copy row: no share.
    assert not any('keys64' in l for l in lines), md
    assert any(l.startswith('| pairs32 | q1 | 1024 |') and '| - | 0.0100 | 0.25 |' in l and l.endswith('| - | ok/ok |')
               for l in lines), md
    # q1 rows before the distributions, then the geometric means: keys32 sqrt(0.556 * 1.0).
    assert lines.index(row) < next(i for i, l in enumerate(lines) if '| q4 |' in l)
    assert "- keys32: geometric mean speed vs CUB's best 0.75 over 2 rows (min 0.56, max 1.00)" in lines, md
    print('bench_report table: ok')


if __name__ == '__main__':
    main()
