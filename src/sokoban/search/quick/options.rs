//! The options of a quick search: which search it is (plain, with the clearing
//! advisor, by box moves, or the reverse search), its packing order, how far its
//! packing advisor looks, and the plans it must beat.

/// How the quick search orders positions.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Most states a box path of the packing advisor looks at.
    pub box_path_states: usize,
    /// How many boxes (nearest first) the packing advisor tries.
    pub packing_candidates: usize,
    /// How many more boxes (the next nearest, one at a time) it tries when none of those
    /// has a box path: the nearest boxes are often the ones stuck behind others
    /// (XSokoban 10, 20 and 37 plan only with these).
    pub fallback_candidates: usize,
    /// Whether the clearing advisor moves a box out of the way of a blocked packing
    /// move (`clearing`). Off by default: on XSokoban it planned fewer levels (see
    /// docs/sokoban.md).
    pub clearing: bool,
    /// Whether the packing order fills one goal at a time (`packing`): of the goals a
    /// layer would take, the one nearest the outside is filled last. The advisors then
    /// aim at one goal, and the shortfall (`capacity`) sees the order within a layer
    /// (XSokoban 90 and 28 plan only this way; 39 and 87 only the other).
    pub goal_by_goal: bool,
    /// Whether the rescue advisor first moves a box that must leave before the next
    /// layer of the packing order is filled (`capacity`).
    pub rescue: bool,
    /// Whether positions are told apart in the feature space by how many goals their
    /// boxes would fall short of once the next layer is filled (`capacity`).
    pub shortfall: bool,
    /// Whether a position's children are every move of one box to any square it can
    /// be pushed to (FESS's macro moves, each costing 1 when not advised) instead of
    /// single pushes (and the tunnel macro).
    pub box_moves: bool,
    /// Whether this is the weighted search instead (`weighted`: best-first by pushes
    /// and three times the matching bound, no advisors, no macros).
    pub weighted: bool,
    /// Whether this is the reverse search instead (`reverse`: backwards, by pulls),
    /// which takes shorter turns beside the others (`turns`).
    pub reverse: bool,
    /// In the reverse search, how many pulls of its bound each stranded box weighs in
    /// the order of positions: a box off the start squares that the player cannot pull
    /// now (it reaches no side of it with room to step back). 0: none. Boxes pulled to
    /// start squares early can shut the player out of the goal room; the bound alone
    /// then keeps the search on a plateau of the boxes outside (XSokoban 29).
    pub stranded: u32,
    /// In the reverse search, whether positions of the same order (bound and stranded
    /// boxes) go first by the fewest boxes off the start squares, before the fewest
    /// pulls. A plateau of the bound is then left by the positions nearest the start
    /// rather than searched breadth-first: alone, with stranded boxes weighing 2, it
    /// plans XSokoban 85 in 6 s (none in 30 s without), 14 in 0.25 s (2.7 s) and 16 in
    /// 9.6 s (11.3 s); with the weight 1, 85 in 6 s (20 s) but 29 in 32.5 s (13.2 s).
    pub starts_first: bool,
    /// How much of each round of turns this search takes (`turns`), in quarters of a
    /// full turn: 4 is the forward searches' share, and a search that plans levels no
    /// other does but needs long for them gets more.
    pub share: usize,
    /// The share after the late point (once the searches set aside then have expanded
    /// `late_after` positions together), if not `share`: the searches that plan many
    /// levels quickly plan them early, and later give their turns to the ones that
    /// need long.
    pub late_share: Option<usize>,
    /// For a search set aside at the late point (a late share of 0): the point, in
    /// positions the searches set aside then have expanded together (`turns::LATE`).
    pub late_after: usize,
    /// Only plans with fewer pushes than this: positions whose pushes so far plus their
    /// matching bound reach it are dropped (a later search improving on a plan).
    pub below: Option<u32>,
}

impl Options {
    /// The search's share of each round of turns, before the late point
    /// (`Options::late_after`) or after it.
    pub fn share_when(&self, late: bool) -> usize {
        match late {
            false => self.share,
            true => self.late_share.unwrap_or(self.share),
        }
    }

    /// The search these options make, for reports.
    pub fn name(&self) -> &'static str {
        if self.weighted {
            return "weighted (pushes + 3 x bound)";
        }
        match (
            self.reverse,
            self.box_moves,
            self.clearing,
            self.goal_by_goal,
        ) {
            (true, true, ..) => match (self.stranded, self.starts_first) {
                (0, false) => "reverse by box moves",
                (2, true) => {
                    "reverse by box moves, stranded boxes weighing 2, nearest the start first"
                }
                _ => "reverse by box moves, stranded boxes weighed or nearest the start first",
            },
            (true, false, ..) => match (self.stranded, self.starts_first) {
                (0, false) => "reverse",
                (1, false) => "reverse, stranded boxes weighing 1",
                (2, false) => "reverse, stranded boxes weighing 2",
                (_, false) => "reverse, stranded boxes weighing more",
                (0, true) => "reverse, nearest the start first",
                (1, true) => "reverse, stranded boxes weighing 1, nearest the start first",
                (2, true) => "reverse, stranded boxes weighing 2, nearest the start first",
                (_, true) => "reverse, stranded boxes weighing more, nearest the start first",
            },
            (false, true, false, _) => "box moves",
            (false, true, true, false) => "box moves with clearing",
            (false, true, true, true) => "box moves with clearing, goal by goal",
            (false, false, true, true) => "clearing, goal by goal",
            (false, false, true, false) => "clearing",
            (false, false, false, true) => "plain, goal by goal",
            (false, false, false, false) => "plain",
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            box_path_states: 2000,
            packing_candidates: 3,
            fallback_candidates: 10,
            clearing: false,
            goal_by_goal: false,
            rescue: true,
            shortfall: true,
            box_moves: false,
            weighted: false,
            reverse: false,
            stranded: 0,
            starts_first: false,
            share: 4,
            late_share: None,
            late_after: 0,
            below: None,
        }
    }
}
