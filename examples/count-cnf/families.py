#!/usr/bin/env python3
"""gridsat count-cnf against Ganak on families of formulas, puzzle formulas included.

    python3 -m pip install --user pyganak          # Ganak's Python bindings (PyPI)
    cargo build --release --bins
    python3 examples/count-cnf/families.py [--timeout S] [--seed N] [--order fixed|dynamic|auto]
        [--eliminate] [--only FAMILY] [--keep DIR]

Writes each formula as a DIMACS file (in a temporary folder, or DIR with --keep), counts
it with `target/release/gridsat count-cnf FILE --order ORDER [--eliminate] --timeout S` and with Ganak
(`examples/count-cnf/ganak.py FILE`, killed after S seconds), and prints one Markdown row
per formula (both counts, both CPU times, their ratio) and one row per family (the
median ratio over the formulas both finished, and how many each finished). A count on
which the two disagree is printed as DISAGREE and makes the exit status 1.

Families (seeded, so a run can be repeated):
- random 3-CNF, n variables and r*n clauses of three distinct variables, r in
  {1, 2, 3, 4.26}, n in {50, 75, 100};
- the same, projected on the first half of the variables;
- k-colourings of an m x m grid graph (one-hot: each cell one of k colours, neighbours
  different), projected on the colour variables: k = 3, m = 5, 7, 9, 11;
- the puzzles: `--dimacs` formulas from the examples of every puzzle (Star Battle and
  Battleship projected on the board, Full Board's minimum game and Sokoban's push-optimal
  horizon on the puzzle's own variables).
CPU seconds are the child process's user + system time (`resource.getrusage`).
"""

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GRIDSAT = os.path.join(ROOT, "target", "release", "gridsat")
GANAK = os.path.join(ROOT, "examples", "count-cnf", "ganak.py")


def write_cnf(path, num_vars, clauses, shown=None, comment=""):
    with open(path, "w", encoding="utf-8") as f:
        if comment:
            f.write(f"c {comment}\n")
        if shown is not None:
            f.write("c p show " + " ".join(map(str, shown)) + " 0\n")
        f.write(f"p cnf {num_vars} {len(clauses)}\n")
        for clause in clauses:
            f.write(" ".join(map(str, clause)) + " 0\n")


def random_3cnf(rng, n, ratio):
    clauses = []
    for _ in range(round(ratio * n)):
        vars_ = rng.sample(range(1, n + 1), 3)
        clauses.append([v if rng.random() < 0.5 else -v for v in vars_])
    return clauses


def grid_colouring(m, k):
    """One variable per (cell, colour); projected on all of them (each model is a colouring)."""
    var = lambda r, c, colour: (r * m + c) * k + colour + 1
    clauses = []
    for r in range(m):
        for c in range(m):
            clauses.append([var(r, c, x) for x in range(k)])
            for x in range(k):
                for y in range(x + 1, k):
                    clauses.append([-var(r, c, x), -var(r, c, y)])
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < m and c + dc < m:
                    for x in range(k):
                        clauses.append([-var(r, c, x), -var(r + dr, c + dc, x)])
    return m * m * k, clauses


def families(rng, folder):
    """(family, name, path) for every formula of the benchmark."""
    out = []
    for ratio in (1.0, 2.0, 3.0, 4.26):
        for n in (50, 75, 100):
            clauses = random_3cnf(rng, n, ratio)
            name = f"n={n} r={ratio}"
            path = os.path.join(folder, f"random-{n}-{ratio}.cnf")
            write_cnf(path, n, clauses, comment=f"random 3-CNF {name}")
            out.append((f"random 3-CNF, r = {ratio}", name, path))
            path = os.path.join(folder, f"projected-{n}-{ratio}.cnf")
            write_cnf(path, n, clauses, shown=range(1, n // 2 + 1), comment=f"projected {name}")
            out.append((f"random 3-CNF projected on half, r = {ratio}", name, path))
    for m in (5, 7, 9, 11):
        num_vars, clauses = grid_colouring(m, 3)
        path = os.path.join(folder, f"colouring-{m}.cnf")
        write_cnf(path, num_vars, clauses, comment=f"3-colourings of the {m}x{m} grid")
        out.append(("3-colourings of an m x m grid", f"m={m}", path))
    puzzles = [
        ("star-battle", "examples/star-battle/twonot2.txt", ["--stars", "1", "--rule", "at-most", "--count"]),
        ("star-battle", "examples/star-battle/twonot1.txt", ["--stars", "1", "--rule", "at-most", "--count"]),
        ("star-battle", "examples/star-battle/custom2.txt", ["--stars", "2", "--rule", "at-most", "--count"]),
        ("battleship", "examples/battleship/puzzle10.txt", ["--count"]),
        ("battleship", "examples/battleship/puzzle1.txt", ["--count"]),
        # Full Board's first small map at its minimum number of moves, and Microban 1 at
        # its push-optimal horizon, each projected on the game's own variables (both
        # have exactly one model there).
        ("full-board", "examples/full-board/set-2016-smallmaps.txt", ["--map", "1", "--count"]),
        ("sokoban", "examples/sokoban/microban-1-10.xsb", ["--method", "sat"]),
    ]
    for command, file, flags in puzzles:
        name = os.path.basename(file).removesuffix(".txt").removesuffix(".xsb")
        path = os.path.join(folder, f"{command}-{name}.cnf")
        subprocess.run(
            [GRIDSAT, command, os.path.join(ROOT, file), *flags, "--dimacs", path],
            stdout=subprocess.DEVNULL,
        )
        if not os.path.exists(path):
            sys.exit(f"{command} {file} wrote no formula")
        out.append(("puzzle formulas (`--dimacs`)", f"{command} {name}", path))
    return out


def timed(argv, timeout):
    """(stdout, CPU seconds of the child, finished) for one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        # gridsat count-cnf exits 1 on a count of 0 (no model), as on a puzzle without one.
        finished = done.returncode in (0, 1)
        text = done.stdout
    except subprocess.TimeoutExpired:
        finished, text = False, ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return text, cpu, finished


def gridsat_count(path, timeout, order, eliminate):
    argv = [GRIDSAT, "count-cnf", path, "--order", order, "--timeout", str(timeout)]
    if eliminate:
        argv.append("--eliminate")
    text, cpu, finished = timed(argv, timeout + 5)
    # `count-cnf` prints the count when it finished, `at least N` when it stopped.
    words = text.split()
    count = int(words[0]) if finished and len(words) == 1 and words[0].isdigit() else None
    return count, cpu


def ganak_count(path, timeout):
    text, cpu, finished = timed([sys.executable, GANAK, path], timeout)
    count = int(text.split()[0]) if finished and text.split() else None
    return count, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per run (30)")
    parser.add_argument("--seed", type=int, default=18, help="seed of the random formulas (18)")
    parser.add_argument("--order", choices=["fixed", "dynamic", "auto"], default="fixed",
                        help="gridsat's decision order (count-cnf --order; fixed)")
    parser.add_argument("--eliminate", action="store_true",
                        help="resolve unprojected variables away first (count-cnf --eliminate)")
    parser.add_argument("--only", help="run only the families whose name contains this")
    parser.add_argument("--keep", help="write the formulas into this folder and keep them")
    args = parser.parse_args()
    if not os.path.exists(GRIDSAT):
        sys.exit(f"{GRIDSAT}: not built; run cargo build --release --bins first")
    rng = random.Random(args.seed)
    folder = args.keep or tempfile.mkdtemp(prefix="gridsat-families-")
    os.makedirs(folder, exist_ok=True)
    disagreements = 0
    by_family = {}
    eliminate = " --eliminate" if args.eliminate else ""
    print(f"timeout {args.timeout} s per run, seed {args.seed}, gridsat --order {args.order}{eliminate}")
    print()
    print("| family | formula | count | gridsat CPU s | Ganak CPU s | gridsat / Ganak |")
    print("|---|---|---:|---:|---:|---:|")
    for family, name, path in families(rng, folder):
        if args.only and args.only not in family:
            continue
        ours, our_cpu = gridsat_count(path, args.timeout, args.order, args.eliminate)
        theirs, their_cpu = ganak_count(path, args.timeout)
        if ours is not None and theirs is not None and ours != theirs:
            disagreements += 1
            count = f"DISAGREE: {ours} against {theirs}"
        else:
            count = str(ours if ours is not None else theirs if theirs is not None else "?")
        shown = lambda value, cpu: f"{cpu:.2f}" if value is not None else f"> {args.timeout:g}"
        ratio = our_cpu / their_cpu if ours is not None and theirs is not None and their_cpu > 0 else None
        row = by_family.setdefault(family, {"ratios": [], "ours": 0, "theirs": 0, "formulas": 0})
        row["formulas"] += 1
        row["ours"] += ours is not None
        row["theirs"] += theirs is not None
        if ratio is not None:
            row["ratios"].append(ratio)
        print(
            f"| {family} | {name} | {count} | {shown(ours, our_cpu)} | {shown(theirs, their_cpu)} | "
            + (f"{ratio:.2f}" if ratio is not None else "-")
            + " |",
            flush=True,
        )
    print()
    print("| family | formulas | gridsat finished | Ganak finished | median gridsat / Ganak |")
    print("|---|---:|---:|---:|---:|")
    for family, row in by_family.items():
        median = f"{statistics.median(row['ratios']):.2f}" if row["ratios"] else "-"
        print(f"| {family} | {row['formulas']} | {row['ours']} | {row['theirs']} | {median} |")
    if disagreements:
        print(f"{disagreements} formulas where the counts disagree", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
