//! What `--repair` proposes for Star Battle: moving one cell of a zone border, i.e.
//! handing one cell to a neighbouring zone (the zone it leaves stays in one piece and
//! keeps a cell), and which rules conflict when there is no solution.

use crate::answer::Proposal;
use crate::limits::Budget;
use gridsat_encodings::grid::{edge_connected, Cell};
use gridsat_encodings::star_battle::{LineRule, Puzzle, Rule};

/// The rules of `puzzle`, in the order `rule_of` numbers them: zones, rows, columns, and
/// that stars do not touch.
pub fn rules(puzzle: &Puzzle, s: usize, line_rule: LineRule) -> Vec<String> {
    let stars = if s == 1 {
        "1 star".to_string()
    } else {
        format!("{s} stars")
    };
    let line = match line_rule {
        LineRule::Exact => format!("exactly {stars}"),
        LineRule::AtMost => format!("at most {stars}"),
    };
    let mut rules: Vec<String> = puzzle
        .zones
        .iter()
        .map(|z| format!("zone '{}': exactly {stars}", z.label))
        .collect();
    rules.extend((0..puzzle.rows).map(|r| format!("row {r}: {line}")));
    rules.extend((0..puzzle.cols).map(|c| format!("column {c}: {line}")));
    rules.push("no two stars touch".to_string());
    rules
}

/// The index in `rules` of a rule.
pub fn rule_index(puzzle: &Puzzle, rule: Rule) -> usize {
    let (zones, rows, cols) = (puzzle.zones.len(), puzzle.rows, puzzle.cols);
    match rule {
        Rule::Zone(k) => k,
        Rule::Row(r) => zones + r,
        Rule::Column(c) => zones + rows + c,
        Rule::NoTouch => zones + rows + cols,
    }
}

/// Every single-cell move of a zone border, in row-major order of the cell moved.
/// `build` makes the puzzle of moved zones (a `StarBattle` with its encoding).
pub fn border_moves<P>(
    p: &Puzzle,
    budget: &Budget,
    build: impl Fn(Puzzle) -> P,
) -> Vec<Proposal<P>> {
    let mut zone_of = vec![0; p.rows * p.cols];
    for (k, zone) in p.zones.iter().enumerate() {
        for cell in &zone.cells {
            zone_of[cell.row * p.cols + cell.col] = k;
        }
    }
    let mut proposals = Vec::new();
    for r in 0..p.rows {
        for c in 0..p.cols {
            if budget.expired() {
                return proposals;
            }
            let from = zone_of[r * p.cols + c];
            let zone = &p.zones[from];
            let rest: Vec<Cell> = zone
                .cells
                .iter()
                .copied()
                .filter(|&x| x != Cell::new(r, c))
                .collect();
            if rest.is_empty() || (edge_connected(&zone.cells) && !edge_connected(&rest)) {
                continue;
            }
            let mut targets: Vec<usize> = neighbours(p, r, c)
                .map(|n| zone_of[n.row * p.cols + n.col])
                .filter(|&z| z != from)
                .collect();
            targets.sort();
            targets.dedup();
            for to in targets {
                let mut zones = p.zones.clone();
                zones[from].cells.retain(|&x| x != Cell::new(r, c));
                zones[to].cells.push(Cell::new(r, c));
                zones[to].cells.sort();
                let moved = Puzzle {
                    rows: p.rows,
                    cols: p.cols,
                    zones,
                };
                proposals.push(Proposal {
                    changes: vec![format!(
                        "move cell (row {r}, col {c}) from zone '{}' to zone '{}'",
                        p.zones[from].label, p.zones[to].label
                    )],
                    puzzle: build(moved),
                });
            }
        }
    }
    proposals
}

fn neighbours(p: &Puzzle, r: usize, c: usize) -> impl Iterator<Item = Cell> + '_ {
    [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)]
        .into_iter()
        .filter_map(move |(dr, dc)| {
            let (nr, nc) = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
            (nr < p.rows && nc < p.cols).then(|| Cell::new(nr, nc))
        })
}
