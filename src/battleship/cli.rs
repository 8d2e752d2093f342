//! `gridsat battleship`: the course program's command line and the modern one, with the
//! flags, texts, JSON shapes and exit statuses every board puzzle shares.

use super::course;
use super::parse::parse_puzzle;
use super::puzzle::Battleship;
use super::url::read_url;
use crate::answer::{answer, BoardPuzzle};
use crate::cli::flags::print_cnf_size;
use crate::cli::{
    CardArgs, CnfArgs, Exit, Format, LimitArgs, Mode, ModeArgs, OutputArgs, SolverArgs,
};
use crate::input::url::is_url;
use crate::input::{read_puzzle_file, InputError};
use anyhow::bail;
use gridsat_encodings::battleship::Puzzle;
use gridsat_encodings::CardEncoding;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const EXAMPLES: &str = "\
Examples:
  The course program's command line (one solution, or all of them and their number):
    gridsat battleship examples/battleship/puzzle_sample.txt
    gridsat battleship examples/battleship/puzzle_sample.txt find_all_solutions

  The modern interface:
    gridsat battleship examples/battleship/puzzle10.txt --count
    gridsat battleship examples/battleship/puzzle6.txt --all --limit 3
    gridsat battleship examples/battleship/puzzle9_constraints.txt --unique
    gridsat battleship examples/battleship/puzzle_sample.txt --determined --format json
    gridsat battleship examples/battleship/puzzle10.txt --card totalizer --dimacs p10.cnf --stats
    gridsat battleship 'https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c' --unique
    gridsat battleship examples/battleship/puzzle_sample.txt --format url

Exit status: 0 a solution was found (with --unique: exactly one); 1 no solution (with
--unique: none or several); 2 bad input or usage; 3 internal error (a solution failed
the independent rule check); 4 gave up at --timeout.

--determined marks: '#' always ship, '.' always water, '?' depends on the solution.
--card chooses the encoding of the row and column sums; the fleet counts always use the
sequential counter.

Solutions are distinct boards: swapping two ships of one type is not a new solution, and
an `unknown` ship is whatever length (1 to 7) its cells have. They are listed in
row-major order: at the first cell where two boards differ, the one with a ship there
comes first.";

/// Battleship solitaire: place the fleet so that every row and column holds the given
/// number of ship cells, no two ships touch (not even diagonally), and every cell hint
/// holds.
///
/// Reads the course's format: `board R C`, `rows` and `cols` sums (numbers or `?`), one
/// ship per line (submarine, destroyer, cruiser, battleship, carrier, cargo, tanker,
/// unknown), then `constraint ROW COL CH` hints with CH one of `o < > ^ v X _`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Puzzle file, or a puzz.link URL (`https://puzz.link/p?battleship/...`; also pzv.jp
    /// and pzprxs.vercel.app).
    pub puzzle: PathBuf,

    /// The course program's flag: print every solution, then `Found N solution(s)`.
    #[arg(value_name = "find_all_solutions", value_parser = ["find_all_solutions"])]
    pub find_all_solutions: Option<String>,

    #[command(flatten)]
    pub modes: ModeArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub cnf: CnfArgs,

    #[command(flatten)]
    pub card: CardArgs,

    #[command(flatten)]
    pub solver: SolverArgs,
}

impl Args {
    /// The arguments of `gridsat battleship PUZZLE [find_all_solutions]`.
    pub fn course(puzzle: PathBuf, find_all_solutions: bool) -> Args {
        Args {
            puzzle,
            find_all_solutions: find_all_solutions.then(|| "find_all_solutions".to_string()),
            modes: ModeArgs::default(),
            output: OutputArgs::default(),
            limits: LimitArgs::default(),
            cnf: CnfArgs::default(),
            card: CardArgs::default(),
            solver: SolverArgs::default(),
        }
    }

    /// The modern interface is asked for by a mode flag or by JSON output.
    fn modern(&self) -> bool {
        self.modes.any() || self.output.format != Format::Text
    }
}

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    run_to(args, &mut out)
}

/// The whole command, answering on `out`.
pub fn run_to(args: &Args, out: &mut impl Write) -> anyhow::Result<Exit> {
    args.solver.choose();
    if args.find_all_solutions.is_some() && args.modern() {
        bail!(
            "find_all_solutions is the course's command line; with --all, --count, --unique, \
             --determined or --format, leave it out"
        );
    }
    let mode = args.modes.mode(Mode::One)?;
    let card = args.card.or(CardEncoding::SequentialCounter);
    let puzzle = Battleship::new(load(&args.puzzle)?, card)
        .map_err(|why| anyhow::anyhow!("{}: {why}", args.puzzle.display()))?;
    args.cnf.write(puzzle.cnf(), 1, 1)?;
    if args.output.stats {
        print_cnf_size(card.name(), puzzle.cnf());
    }
    let budget = args.limits.budget();
    if !args.modern() {
        return course::run(puzzle, args.find_all_solutions.is_some(), &budget, out);
    }
    answer(Arc::new(puzzle), mode, args.output.format, &budget, out)
}

/// Reads the puzzle a file or a puzz.link URL gives.
pub fn load(path: &Path) -> anyhow::Result<Puzzle> {
    let name = path.to_string_lossy();
    if is_url(&name) {
        return Ok(read_url(&name)?);
    }
    let text = read_puzzle_file(path)?;
    Ok(parse_puzzle(&text).map_err(|e| InputError::new(path, e))?)
}
