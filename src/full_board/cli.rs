//! `gridsat full-board`: the course's command line (a file name on standard input, the
//! course's exact output) and the shared flag groups (modes, JSON, `--timeout`,
//! `--dimacs`), each map answered as it is decided.

use super::context::Options;
use super::context::Progress as Proven;
use super::formula::{game_formula, horizon_without_game};
use super::parse::{parse_maps, MapEntry};
use super::picture::map_boards;
use super::render::{
    count_text, course_map, determined_text, json_map, unique_text, uniqueness, JsonDetail,
};
use super::solve::solve_watched;
use super::verdict::Verdict;
use crate::answer::items::ItemPrinter;
use crate::cli::flags::{print_cnf_size, write_dimacs};
use crate::cli::{
    CardArgs, CnfArgs, Exit, Format, HorizonArgs, LimitArgs, Mode, ModeArgs, OutputArgs, SolverArgs,
};
use crate::input::{read_puzzle_file, InputError};
use crate::progress::Progress;
use gridsat_encodings::card::CardEncoding;
use gridsat_encodings::full_board::Encoding;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "A solution is a game of the minimum number of moves. Without a mode flag \
every one of each map is listed, as the course's program does.

Exit status: 0 every map solved; 1 some map has no solution (with --unique: or its minimum \
game is not unique); 2 bad input; 3 internal error; 4 gave up on some map at --timeout.

--dimacs FILE writes, per map, the formula of the games of K moves (K = --horizon, default the \
proven minimum) in the chosen --encoding, with the assumptions as unit clauses and a `c p show` \
line over the game's own variables (so a projected model counter counts the games). For a map \
without a game it is the formula of n - 1 moves (n open cells: the most a game can have), \
unsatisfiable like that of any other length; for a map given up before its minimum was proven \
nothing is written.

Examples:
  echo examples/full-board/set-2018-smallmaps.txt | gridsat full-board
      the course's interface: the file name on standard input, its exact output
  gridsat full-board examples/full-board/set-2018-smallmaps.txt --format json
  gridsat full-board examples/full-board/set-2018-smallmaps.txt --count         how many minimum games per map
  gridsat full-board examples/full-board/set-2018-smallmaps.txt --determined    where every minimum game agrees
  gridsat full-board examples/full-board/set-2018-smallmaps.txt --unique        is each map's minimum game unique?
  gridsat full-board examples/full-board/set-2018-smallmaps.txt --timeout 10 --dimacs 'map-{}.cnf'"
)]
pub struct Args {
    /// Map file; without it, one line naming the file is read from standard input.
    pub input: Option<PathBuf>,

    /// Answer only map N of the file (1-based, in file order); default every map.
    #[arg(long, value_name = "N", value_parser = crate::cli::numbers::positive)]
    pub map: Option<usize>,

    #[command(flatten)]
    pub mode: ModeArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub cnf: CnfArgs,

    #[command(flatten)]
    pub horizon: HorizonArgs,

    #[command(flatten)]
    pub card: CardArgs,

    #[command(flatten)]
    pub solver: SolverArgs,

    /// CNF encoding, used when the bounded search does not decide the map (see
    /// --no-search).
    #[arg(long, value_enum, default_value_t = EncodingChoice::Segments, help_heading = "CNF")]
    pub encoding: EncodingChoice,

    /// State the segments encoding alone, without tying its moves to a line cover of
    /// the board (slower; for comparing the two).
    #[arg(long, help_heading = "Search")]
    pub no_cover_tie: bool,

    /// Search with one thread: the segments encoding alone, without the successor
    /// encoding's parallel proof that no game exists.
    #[arg(long, help_heading = "Search")]
    pub sequential: bool,

    /// Skip the bounded exhaustive search that raises the line-cover bound (and lists
    /// every minimum game where the cover is tight) before the SAT encodings run.
    #[arg(long, help_heading = "Search")]
    pub no_search: bool,
}

/// `--encoding`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EncodingChoice {
    /// One layer per move, the horizon grown from a proven lower bound.
    Segments,
    /// A successor per cell and a visiting order; no horizon.
    Successor,
}

impl From<EncodingChoice> for Encoding {
    fn from(choice: EncodingChoice) -> Encoding {
        match choice {
            EncodingChoice::Segments => Encoding::Segments,
            EncodingChoice::Successor => Encoding::Successor,
        }
    }
}

pub fn run(args: &Args) -> anyhow::Result<Exit> {
    run_to(args, std::io::stdout().lock())
}

/// `run`, written to `out`.
pub fn run_to(args: &Args, mut out: impl Write) -> anyhow::Result<Exit> {
    args.solver.choose();
    let mode = args.mode.mode(Mode::All { limit: None })?;
    if mode == Mode::Repair {
        anyhow::bail!(
            "--repair is for the board puzzles (Star Battle, Battleship), not Full Board"
        );
    }
    let card = args.card.or(CardEncoding::Totalizer);
    if card == CardEncoding::Pairwise {
        anyhow::bail!(
            "--card pairwise: the successor encoding's move counter needs a counting \
             encoding (sequential, totalizer or sorting-network)"
        );
    }
    let path = match &args.input {
        Some(path) => path.clone(),
        None => file_name_from_stdin()?,
    };
    let format = args.output.format;
    format.require("full-board", &[Format::Text, Format::Json, Format::Svg])?;
    if format == Format::Text && !path.exists() {
        // The course's answer for a missing file (a directory or a device that exists
        // gets the reader's own message instead).
        write!(out, "File not found.\nComplete\n")?;
        out.flush()?;
        eprintln!("gridsat: {}: no such file", path.display());
        return Ok(Exit::BadInput);
    }
    let maps = select_map(read_maps(&path)?, args.map, &path)?;
    let options = Options {
        encoding: args.encoding.into(),
        limit: match mode {
            Mode::All { limit } | Mode::Count { limit } => limit,
            Mode::Unique => Some(2),
            Mode::One | Mode::Determined | Mode::Repair => None,
        },
        card,
        verbose: args.output.stats,
        cover_tie: !args.no_cover_tie,
        parallel_refutation: !args.sequential,
        bounded_search: !args.no_search,
    };
    let mut printer = ItemPrinter::new(out, format);
    let progress = Progress::items(maps.len() as u64, "maps");
    for (index, map) in maps.iter().enumerate() {
        if crate::limits::interrupted() {
            // Ctrl-C: the map it stopped was printed as given up; no more.
            break;
        }
        let began = Instant::now();
        let proven = Proven::default();
        let line = map.line;
        let watch = progress.watch({
            let proven = proven.clone();
            move || match proven.snapshot().at_least {
                0 => format!("map at line {line}"),
                k => format!("map at line {line}: no game of fewer than {k} moves"),
            }
        });
        let verdict = solve_watched(&map.board, &options, args.limits.timeout, proven)?;
        drop(watch);
        let seconds = began.elapsed().as_secs_f64();
        if let Some(path) = args.cnf.path_for(index + 1, maps.len()) {
            write_formula(args, &options, map, &verdict, &path)?;
        }
        if let (
            Mode::All { .. },
            Format::Text,
            Verdict::Solved {
                all_found: false, ..
            },
        ) = (mode, format, &verdict)
        {
            eprintln!(
                "gridsat: map at line {}: more minimum games exist than --limit prints",
                map.line
            );
        }
        let detail = match mode {
            Mode::Count { .. } => JsonDetail::CountOnly,
            Mode::Determined => JsonDetail::Determined,
            _ => JsonDetail::Solutions,
        };
        progress.inc();
        progress.suspend(|| {
            printer.item_with_picture(
                exit_of(mode, &verdict),
                |out| {
                    let mut text = String::new();
                    match mode {
                        Mode::One | Mode::All { .. } | Mode::Repair => {
                            course_map(&mut text, map, &verdict)
                        }
                        Mode::Count { .. } => count_text(&mut text, map, &verdict),
                        Mode::Unique => unique_text(&mut text, map, &verdict),
                        Mode::Determined => determined_text(&mut text, map, &verdict),
                    }
                    out.write_all(text.as_bytes())
                },
                || {
                    let mut value = json_map(map, &verdict, seconds, detail);
                    if mode == Mode::Unique {
                        value["unique"] = serde_json::json!(uniqueness(&verdict));
                    }
                    value
                },
                || map_boards(map, &verdict, mode),
            )
        })?;
    }
    progress.finish();
    let course = matches!(mode, Mode::One | Mode::All { .. });
    let exit = printer.finish(
        |out| {
            if course {
                writeln!(out, "Complete")
            } else {
                Ok(())
            }
        },
        |maps| serde_json::json!({ "file": path.display().to_string(), "maps": maps }),
    )?;
    Ok(exit)
}

/// A map's exit status: no solution (or, with `--unique`, not unique) is 1, giving up 4.
fn exit_of(mode: Mode, verdict: &Verdict) -> Exit {
    match verdict {
        Verdict::NoSolution(_) => Exit::NoAnswer,
        Verdict::GaveUp(_) => Exit::GaveUp,
        Verdict::Solved { games, .. } if mode == Mode::Unique => Exit::answered(games.len() == 1),
        Verdict::Solved { .. } => Exit::Solved,
    }
}

/// The longest first line of standard input read as a file name: far beyond any path,
/// and a bound, so that `gridsat full-board < /dev/zero` is refused, not read forever.
pub const MAX_FILE_NAME_LINE: usize = 4096;

/// The course's interface: the map file's name is the first line of standard input.
fn file_name_from_stdin() -> anyhow::Result<PathBuf> {
    let mut line = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_FILE_NAME_LINE as u64 + 1)
        .read_until(b'\n', &mut line)?;
    if !line.ends_with(b"\n") && line.len() > MAX_FILE_NAME_LINE {
        anyhow::bail!(
            "standard input: the first line (the map file's name) is longer than \
             {MAX_FILE_NAME_LINE} bytes"
        );
    }
    while line.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
        line.pop();
    }
    let name = String::from_utf8(line)
        .map_err(|_| anyhow::anyhow!("standard input: the map file's name is not UTF-8"))?;
    if name.is_empty() {
        anyhow::bail!(
            "standard input: no map file named (the first line is empty); give the file \
             as an argument or on standard input"
        );
    }
    Ok(PathBuf::from(name))
}

/// The maps `--map` asks for: map `n` alone, or all of them.
fn select_map(
    mut maps: Vec<MapEntry>,
    map: Option<usize>,
    path: &Path,
) -> anyhow::Result<Vec<MapEntry>> {
    let Some(n) = map else {
        return Ok(maps);
    };
    if n == 0 || n > maps.len() {
        anyhow::bail!(
            "{}: --map {n}: the file has {} map(s), numbered from 1",
            path.display(),
            maps.len()
        );
    }
    Ok(vec![maps.swap_remove(n - 1)])
}

pub fn read_maps(path: &Path) -> anyhow::Result<Vec<MapEntry>> {
    let text = read_puzzle_file(path)?;
    Ok(parse_maps(&text).map_err(|e| InputError::new(path, e))?)
}

/// `--dimacs` for one map (see the command's help for what is written).
fn write_formula(
    args: &Args,
    options: &Options,
    map: &MapEntry,
    verdict: &Verdict,
    path: &Path,
) -> anyhow::Result<()> {
    let moves = match (args.horizon.horizon, verdict) {
        (Some(k), _) => k,
        (None, Verdict::Solved { moves, .. }) => *moves,
        (None, Verdict::NoSolution(_)) => horizon_without_game(&map.board),
        (None, Verdict::GaveUp(partial)) => match partial.minimum {
            Some(moves) => moves,
            None => {
                eprintln!(
                    "gridsat: {}: not written: the minimum of the map at line {} is not \
                     proven (give --horizon K)",
                    path.display(),
                    map.line
                );
                return Ok(());
            }
        },
    };
    match game_formula(&map.board, options, moves) {
        Ok(cnf) => {
            write_dimacs(&cnf, path)?;
            if options.verbose {
                let what = format!("{} encoding, {moves} moves", options.encoding.name());
                print_cnf_size(&what, &cnf);
            }
            Ok(())
        }
        Err(why) if args.horizon.horizon.is_some() => {
            anyhow::bail!("--horizon {moves}: {why}")
        }
        Err(why) => {
            eprintln!(
                "gridsat: {}: not written for the map at line {}: {why} (give --horizon K)",
                path.display(),
                map.line
            );
            Ok(())
        }
    }
}
