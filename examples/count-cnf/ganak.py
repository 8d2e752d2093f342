#!/usr/bin/env python3
"""Count a DIMACS file with Ganak (pyganak), projected as gridsat count-cnf projects it.

    python3 -m pip install --user pyganak      # Ganak's Python bindings (PyPI)
    python3 examples/count-cnf/ganak.py FILE.cnf

The projection is the union of the `c p show ... 0` and `c ind ... 0` lines; without
one every variable is counted. Prints the count on standard output, and on standard
error Ganak's version and the CPU seconds of this process (reading included).
"""

import resource
import sys

import pyganak


def read(path):
    """The header's variable count, the clauses and the projection (None: all)."""
    num_vars, clauses, shown, clause = 0, [], None, []
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            words = line.split()
            if not words or words[0] == "%":
                if words:
                    break
                continue
            if words[0] == "c":
                if words[1:3] == ["p", "show"] or words[1:2] == ["ind"]:
                    start = 3 if words[1] == "p" else 2
                    vars_ = [int(w) for w in words[start:]]
                    if vars_[-1:] != [0]:
                        sys.exit(f"{path}: a projection line must end in 0")
                    shown = (shown or []) + vars_[:-1]
                continue
            if words[0] == "p":
                num_vars = int(words[2])
                continue
            for w in words:
                lit = int(w)
                if lit == 0:
                    clauses.append(clause)
                    clause = []
                else:
                    clause.append(lit)
    return num_vars, clauses, shown


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    num_vars, clauses, shown = read(sys.argv[1])
    counter = pyganak.Counter()
    counter.new_vars(num_vars)
    counter.add_clauses(clauses)
    if shown is not None:
        counter.set_sampling_set(sorted(set(shown)))
    count = counter.count()
    print(count)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"ganak {pyganak.__version__}: {usage.ru_utime + usage.ru_stime:.2f} s CPU, "
        f"{usage.ru_maxrss // 1024} MB",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
