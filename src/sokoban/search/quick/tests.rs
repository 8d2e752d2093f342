//! The packing advisor, on positions built by hand.

use super::packing::PackingOrder;
use super::{Advice, Options, Search};
use crate::sokoban::parse::{parse_levels, LevelFormat};
use gridsat_encodings::grid::Cell;
use gridsat_encodings::sokoban::{Analysis, Level};

fn level(text: &str) -> Level {
    parse_levels(text, LevelFormat::Xsb, None).unwrap()[0]
        .level
        .clone()
}

/// The packing advisor's move in the start position of `l`, as (box square, pushes).
fn advice(l: &Level, options: Options) -> Option<(usize, usize)> {
    let analysis = Analysis::new(l);
    let order = PackingOrder::new(l);
    let mut search = Search::new(l, &analysis, &order, options);
    for &b in l.boxes() {
        search.occupied[b] = true;
    }
    search.box_list = l.boxes().to_vec();
    search.box_list.sort_unstable();
    search.flood.fill(l, &search.occupied, l.player());
    match search.packing_advice(l.player()) {
        Advice::Pack((k, child)) => {
            assert!(child.advised);
            Some((search.box_list[k], child.pushes.len()))
        }
        Advice::Rescue(_) | Advice::Clear(_) | Advice::None => None,
    }
}

#[test]
fn past_the_nearest_stuck_boxes_a_farther_box_is_advised() {
    // The three boxes in the top row are the nearest to the goals (one or two pushes),
    // but each needs the player on a square it cannot reach. The box on (3,3) has a
    // path of three pushes: left twice, then up onto the goal on (2,1).
    let l = level("#########\n#...$$$.#\n#.#######\n#  $  @#\n#  #####\n########\n");
    let at = |r, c| l.cell_at(Cell::new(r, c)).unwrap();
    assert_eq!(advice(&l, Options::default()), Some((at(3, 3), 3)));
    // Trying the nearest three alone finds nothing to advise.
    let nearest_only = Options {
        fallback_candidates: 0,
        ..Options::default()
    };
    assert_eq!(advice(&l, nearest_only), None);
}
