//! `gridsat star-battle`: the course program's command line and the modern one.

use super::course::{self, CourseArgs};
use super::parse::{parse, ParsedPuzzle};
use super::puzzle::StarBattle;
use super::url::read_url;
use crate::answer::{answer, BoardPuzzle};
use crate::cli::flags::print_cnf_size;
use crate::cli::{
    CardArgs, CnfArgs, Exit, Format, LimitArgs, Mode, ModeArgs, OutputArgs, SolverArgs,
};
use crate::input::url::is_url;
use crate::input::{read_puzzle_file, InputError};
use anyhow::bail;
use gridsat_encodings::star_battle::LineRule;
use gridsat_encodings::CardEncoding;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const EXAMPLES: &str = "\
Examples:
  The course program's command line (result written to OUTPUT; '-' is standard output):
    gridsat star-battle examples/star-battle/custom1.txt out.txt 2 print all_solutions
    gridsat star-battle examples/star-battle/twonot1.txt - 1 count all_solutions

  The modern interface (result on standard output):
    gridsat star-battle examples/star-battle/twonot1.txt --stars 2
    gridsat star-battle examples/star-battle/custom2.txt --stars 2 --rule at-most --all --limit 5
    gridsat star-battle examples/star-battle/twonot1.txt --stars 2 --unique
    gridsat star-battle examples/star-battle/queens8.txt --determined --format json
    gridsat star-battle examples/star-battle/twonot2.txt --stars 2 --count --timeout 10
    gridsat star-battle examples/star-battle/twonot1.txt --stars 2 --card totalizer --dimacs out.cnf
    gridsat star-battle 'https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk' --unique
    gridsat star-battle examples/star-battle/twonot1.txt --stars 2 --format url

Exit status: 0 a solution was found (with --unique: exactly one; the course command line:
its file was written); 1 no solution (with --unique: none or several); 2 bad input or
usage; 3 internal error (a solution failed the independent rule check); 4 gave up at
--timeout.

--determined marks: '@' always a star, '.' never a star, '?' depends on the solution.

Solutions are listed in row-major order: at the first cell where two boards differ, the
board with a star there comes first.";

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RuleArg {
    /// At most S stars per row and column (the course homework's variant).
    AtMost,
    /// Exactly S stars per row and column (the standard puzzle).
    Exact,
}

impl RuleArg {
    pub fn rule(self) -> LineRule {
        match self {
            RuleArg::AtMost => LineRule::AtMost,
            RuleArg::Exact => LineRule::Exact,
        }
    }
}

/// Star Battle: every zone holds exactly S stars, no two stars touch (not even
/// diagonally), and each row and column holds exactly S (standard) or at most S (the
/// course's variant).
///
/// Reads the course's format (`ROWS COLS`, then per zone `LABEL COUNT` and COUNT `x y`
/// pairs) or a letter grid (an optional first line with S, then one row of zone letters
/// per line).
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Puzzle file, or a puzz.link URL (`https://puzz.link/p?starbattle/...`; also
    /// pzv.jp and pzprxs.vercel.app).
    pub input: PathBuf,

    /// The course program's arguments: OUTPUT S count|print one_solution|all_solutions.
    /// With them, rows and columns hold AT MOST S stars unless --rule says otherwise.
    #[arg(value_name = "COURSE_ARGS", num_args = 0..=4)]
    pub course: Vec<String>,

    /// Stars per zone, row and column (S). A letter-grid file may state it on its first line.
    #[arg(long, short, value_parser = crate::cli::numbers::positive)]
    pub stars: Option<usize>,

    /// Row and column rule. Default: exact, or at-most with the course's arguments.
    #[arg(long, value_enum)]
    pub rule: Option<RuleArg>,

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

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    run_to(args, &mut std::io::BufWriter::new(std::io::stdout().lock()))
}

/// `run`, the modern interface's answer written to `out` (the course's arguments name
/// their own output file).
pub fn run_to(args: &Args, out: &mut impl std::io::Write) -> anyhow::Result<Exit> {
    args.solver.choose();
    let parsed = load(&args.input)?;
    let card = args.card.or(CardEncoding::SequentialCounter);
    if !args.course.is_empty() {
        if args.modes.any() || args.stars.is_some() || args.output.format != Format::Text {
            bail!(
                "--all, --count, --unique, --determined, --stars, --limit and --format belong \
                 to the modern interface, not the course's arguments"
            );
        }
        let course_args = CourseArgs::parse(&args.course)?;
        let rule = args.rule.map_or(LineRule::AtMost, RuleArg::rule);
        let puzzle = StarBattle::within_limits(parsed.puzzle, course_args.stars, rule, card)
            .map_err(|e| anyhow::anyhow!("{}: {e}", args.input.display()))?;
        write_cnf(args, &puzzle)?;
        return course::run(puzzle, &course_args, &args.limits.budget());
    }
    let stars = match (args.stars, parsed.stars) {
        (Some(s), _) | (None, Some(s)) => s,
        (None, None) => bail!(
            "{}: give the number of stars with --stars S (the file does not state it)",
            args.input.display()
        ),
    };
    if stars == 0 {
        bail!("--stars must be at least 1");
    }
    let mode = args.modes.mode(Mode::One)?;
    let rule = args.rule.map_or(LineRule::Exact, RuleArg::rule);
    let puzzle = StarBattle::within_limits(parsed.puzzle, stars, rule, card)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.input.display()))?;
    write_cnf(args, &puzzle)?;
    answer(
        Arc::new(puzzle),
        mode,
        args.output.format,
        &args.limits.budget(),
        out,
    )
}

/// `--dimacs` and `--stats`.
fn write_cnf(args: &Args, puzzle: &StarBattle) -> anyhow::Result<()> {
    args.cnf.write(puzzle.cnf(), 1, 1)?;
    if args.output.stats {
        print_cnf_size(puzzle.card.name(), puzzle.cnf());
    }
    Ok(())
}

/// Reads the puzzle a file or a puzz.link URL gives.
pub fn load(path: &Path) -> anyhow::Result<ParsedPuzzle> {
    let name = path.to_string_lossy();
    if is_url(&name) {
        return Ok(read_url(&name)?);
    }
    let text = read_puzzle_file(path)?;
    Ok(parse(&text).map_err(|e| InputError::new(path, e))?)
}
