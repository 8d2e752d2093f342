#!/usr/bin/env python3
"""Level-by-level comparison of gridsat's benchmark table with soukoban's results.

Usage: compare.py TABLE.md SOUKOBAN.txt [COLUMN ...]
TABLE.md is the output of examples/sokoban/main.rs (a Markdown table with columns
"M pushes | M seconds" per method); SOUKOBAN.txt the output of run.sh here (lines
"level N solved PUSHES SECONDS" or "level N failed ..."). For each gridsat COLUMN
(default: every method in the table) it prints, per level, both times and the ratio
gridsat/soukoban, then a summary: levels solved by each, the geometric mean of the
ratio on the levels both solved (times floored at 5 ms, as in the driver), how many
levels each was faster on, and any push count that differs.
"""
import math
import sys


def read_table(path):
    rows, methods = {}, []
    for line in open(path, encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "level":
            methods = [c[: -len(" pushes")] for c in cells[2::2]]
            continue
        if not cells[0].isdigit():
            continue
        level = int(cells[0])
        for k, m in enumerate(methods):
            pushes, seconds = cells[2 + 2 * k], float(cells[3 + 2 * k])
            solved = pushes.split(" ")[0].isdigit()
            rows.setdefault(level, {})[m] = (
                int(pushes.split(" ")[0]) if solved else None,
                seconds,
            )
    return rows, methods


def read_soukoban(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        w = line.split()
        if len(w) >= 4 and w[0] == "level":
            solved = w[2] == "solved"
            out[int(w[1])] = (int(w[3]) if solved else None, float(w[-1]))
    return out


def main():
    table, methods = read_table(sys.argv[1])
    souko = read_soukoban(sys.argv[2])
    columns = sys.argv[3:] or methods
    for m in columns:
        print(f"## {m} against soukoban")
        print(f"| level | {m} pushes | {m} s | soukoban pushes | soukoban s | ratio {m}/soukoban |")
        print("|---|---|---|---|---|---|")
        both, faster, slower, mismatch = [], 0, 0, []
        for level in sorted(table):
            p, t = table[level][m]
            sp, st = souko.get(level, (None, 60.0))
            ratio = ""
            if p is not None and sp is not None:
                a, b = max(t, 0.005), max(st, 0.005)
                both.append(math.log(a / b))
                faster += a < b
                slower += a > b
                ratio = f"{a / b:.2f}"
                if p != sp:
                    mismatch.append(level)
            show = lambda x: "-" if x is None else str(x)
            print(f"| {level} | {show(p)} | {t:.3f} | {show(sp)} | {st:.3f} | {ratio} |")
        solved = sum(1 for lv in table if table[lv][m][0] is not None)
        ssolved = sum(1 for lv in table if souko.get(lv, (None,))[0] is not None)
        geo = math.exp(sum(both) / len(both)) if both else float("nan")
        print()
        print(
            f"{m}: {solved} solved, soukoban: {ssolved} solved; on the {len(both)} both solved "
            f"the time ratio {m}/soukoban has geometric mean {geo:.3f}; {m} faster on {faster}, "
            f"slower on {slower}; push counts differ on {mismatch or 'none'}"
        )
        print()


main()
