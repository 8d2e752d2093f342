//! What A* can be asked to use (`Options`, `PerimeterOptions`) and what it reports
//! having done (`SearchStats`).

/// What the search did, for reports.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct SearchStats {
    /// Positions stored (open and closed).
    pub stored: usize,
    /// Positions expanded.
    pub expanded: usize,
    /// Expansions that pushed only the boxes of a PI-corral.
    pub corral_expansions: usize,
    /// Expansions cut because a PI-corral could not be opened.
    pub corral_deadlocks: usize,
    /// Positions stored when the split bound (see `split`) was tried (0: never), and
    /// when it was given up for costing more than it saved (0: never).
    pub split_from: usize,
    pub split_until: usize,
    /// Halves searched for the split bound, and the positions those searches stored.
    pub split_searches: usize,
    pub split_positions: usize,
    /// Children cut because one half of the split has no plan.
    pub split_deadlocks: usize,
    /// Expanded positions expanded again after being reached with fewer pushes (only
    /// with the split bound: the matching bound alone is consistent).
    pub reopened: usize,
    /// Positions in the perimeter (see `perimeter`), and the pushes to go up to which it
    /// holds every position (0 and 0: not built).
    pub perimeter_positions: usize,
    pub perimeter_depth: u32,
    /// Seconds spent searching back.
    pub perimeter_seconds: f64,
    /// Positions whose bound the perimeter raised, and those it proved dead (the search
    /// back ended without meeting them).
    pub perimeter_raised: usize,
    pub perimeter_deadlocks: usize,
    /// Bytes of the pair table (see `pairs`; 0: not built), seconds building it, and
    /// positions whose bound it raised or that it proved dead.
    pub pair_bytes: usize,
    pub pair_seconds: f64,
    pub pair_raised: usize,
    pub pair_deadlocks: usize,
    /// Children not stored because their bound passed the ceiling: `--max-pushes`, or
    /// one push fewer than a plan another search found (see `ceiling`).
    pub ceiling_cuts: usize,
    /// The last layer on several cores (see `layer`): its workers (0: not run), the
    /// positions they expanded (counted in `expanded` too) and stored new, and 1 when
    /// the plan returned is the one they found.
    pub layer_workers: usize,
    pub layer_expanded: usize,
    pub layer_stored: usize,
    pub layer_plans: usize,
}

impl SearchStats {
    /// Counts what the workers of the last layer did.
    pub(super) fn add_layer(&mut self, workers: usize, layer: &super::layer::LayerReport) {
        self.layer_workers = workers;
        self.layer_expanded += layer.expanded;
        self.layer_stored += layer.stored;
        self.expanded += layer.expanded;
        self.corral_expansions += layer.corral_expansions;
        self.corral_deadlocks += layer.corral_deadlocks;
        self.pair_raised += layer.pair_raised;
        self.pair_deadlocks += layer.pair_deadlocks;
        self.ceiling_cuts += layer.ceiling_cuts;
    }
}

/// Which optional pruning and bounds the search uses (every setting proves the same
/// optimum).
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Push only the boxes of a PI-corral when the position has one (see `corral`).
    pub pi_corrals: bool,
    /// Once the search has stored this many positions, add the split bound if it beats
    /// the matching bound on the start (see `split`); `None`: never.
    pub split_after: Option<usize>,
    /// The perimeter bound (see `perimeter`); `None`: never.
    pub perimeter: Option<PerimeterOptions>,
    /// The pair bound (see `pairs`) when its table takes at most this many bytes (0:
    /// never).
    pub pair_bytes: usize,
    /// Threads for the last layer under a ceiling (see `layer`): 1 keeps it on the
    /// search's own; and the positions the search must have stored first.
    pub layer_workers: usize,
    pub layer_after: usize,
}

/// When the perimeter bound starts, how large it grows, and when it is dropped.
#[derive(Clone, Copy, Debug)]
pub struct PerimeterOptions {
    /// Start once the search has stored this many positions.
    pub after: usize,
    /// Each time the search has doubled its positions since, grow to this percentage of
    /// them.
    pub percent: usize,
    /// Drop it when it raised fewer than one bound in this many expansions while the
    /// search doubled (0: never).
    pub worth: usize,
}

impl Default for PerimeterOptions {
    /// On Microban II 126 (A* alone) 50 % proves it in 31-32 s, as 100 % does, against
    /// 36-38 s without the perimeter and 36 s with 25 %; there it raises one bound in 16
    /// expansions, on XSokoban 34 (bounds of 160 and more, complete to 24 pushes) none.
    fn default() -> PerimeterOptions {
        PerimeterOptions {
            after: 1_000_000,
            percent: 50,
            worth: 1000,
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            pi_corrals: true,
            split_after: Some(SPLIT_AFTER),
            perimeter: Some(PerimeterOptions::default()),
            pair_bytes: PAIR_BYTES,
            layer_workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            layer_after: LAYER_AFTER,
        }
    }
}

/// Positions the search stores before its last layer may go to several cores: a
/// smaller search is over before the threads would pay for themselves.
pub const LAYER_AFTER: usize = 10_000;

/// The largest pair table built by default.
pub const PAIR_BYTES: usize = 256 << 20;

/// Positions the search stores with the matching bound alone before it tries the split
/// bound: most levels are solved by then, and never pay for the halves' searches.
pub const SPLIT_AFTER: usize = 500_000;
