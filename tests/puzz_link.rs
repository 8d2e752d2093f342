//! puzz.link URLs on the command line: public URLs with their published solutions, the
//! three sites, round trips between files and URLs, and malformed URLs.
//!
//! Sources of the URLs:
//! - `starbattle/6/6/1/2u9gn9c9jpmk`: issue 15's example and cspuz_core's serializer test
//!   (semiexp/cspuz_core, cspuz_rs_puzzles/src/puzzles/star_battle.rs), whose test gives
//!   the solution;
//! - `starbattle/6/6/1/4ilbhgdnmhou`: pzprjs's debug data (robx/pzprjs,
//!   test/script/starbattle.js), whose correct answer stands there as a pzprv3 file;
//! - `battleship/6/6/g12h2g30g3gk0r3w//c`: cspuz_core's Battleship test
//!   (cspuz_rs_puzzles/src/puzzles/battleship.rs), with its solution.

mod common;
use common::{gridsat, stderr, stdout, write_temp};

/// The cells holding a star (`@`) or a ship part in a printed board, row-major.
fn marked(board: &str, mark: impl Fn(char) -> bool) -> Vec<(usize, usize)> {
    board
        .lines()
        .enumerate()
        .flat_map(|(r, line)| {
            line.chars()
                .enumerate()
                .filter(|&(_, c)| mark(c))
                .map(move |(c, _)| (r, c))
        })
        .collect()
}

#[test]
fn public_star_battle_urls_have_their_published_solutions() {
    for (url, stars) in [
        (
            "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk",
            [(0, 1), (1, 4), (2, 2), (3, 0), (4, 5), (5, 3)],
        ),
        (
            "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou",
            [(0, 1), (1, 3), (2, 5), (3, 2), (4, 4), (5, 0)],
        ),
    ] {
        let out = gridsat(&["star-battle", url, "--unique"]);
        assert_eq!(out.status.code(), Some(0), "{url}: {}", stderr(&out));
        let text = stdout(&out);
        let board = text.strip_prefix("Unique solution:\n").expect("unique");
        assert_eq!(marked(board, |c| c == '@'), stars, "{url}");
    }
}

#[test]
fn the_public_battleship_url_has_its_published_solution() {
    let url = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";
    let out = gridsat(&["battleship", url, "--unique"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let board: String = text
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| format!("{}\n", &l[1..7]))
        .collect();
    let ships = marked(&board, |c| c != ' ');
    assert_eq!(
        ships,
        [
            (0, 2),
            (1, 0),
            (1, 2),
            (1, 5),
            (3, 0),
            (3, 1),
            (4, 3),
            (4, 4),
            (4, 5),
            (5, 0)
        ]
    );
}

#[test]
fn every_site_and_scheme_is_read() {
    let body = "starbattle/6/6/1/2u9gn9c9jpmk";
    for prefix in [
        "https://puzz.link/p?",
        "http://puzz.link/p?",
        "https://pzv.jp/p.html?",
        "https://pzprxs.vercel.app/p?",
        "puzz.link/p?",
    ] {
        let url = format!("{prefix}{body}");
        let out = gridsat(&["star-battle", &url, "--count"]);
        assert_eq!(
            stdout(&out),
            "Number of solutions: 1\n",
            "{url}: {}",
            stderr(&out)
        );
    }
}

/// file -> URL -> file: the same puzzle, and URL -> file -> URL: the same URL.
#[test]
fn files_and_urls_round_trip() {
    for (command, file, extra) in [
        (
            "star-battle",
            "examples/star-battle/twonot1.txt",
            &["--stars", "2"][..],
        ),
        ("star-battle", "examples/star-battle/queens8.txt", &[][..]),
        (
            "battleship",
            "examples/battleship/puzzle10_constraints.txt",
            &[][..],
        ),
        (
            "battleship",
            "examples/battleship/puzzle_sample.txt",
            &[][..],
        ),
    ] {
        let url_of = |input: &str| {
            let out = gridsat(&[&[command, input], extra, &["--format", "url"]].concat());
            assert_eq!(out.status.code(), Some(0), "{input}: {}", stderr(&out));
            stdout(&out).trim_end().to_string()
        };
        let url = url_of(file);
        assert!(url.starts_with("https://puzz.link/p?"), "{url}");
        // Star Battle's course format has no star count: its letter grid has.
        let form = if command == "star-battle" {
            "grid"
        } else {
            "course"
        };
        let course = stdout(&gridsat(&[command, &url, "--format", form]));
        let written = write_temp(&course);
        let path = written.path().to_str().unwrap();
        let out = gridsat(&[command, path, "--format", "url"]);
        assert_eq!(stdout(&out).trim_end(), url, "{file}: {}", stderr(&out));
        // The same answer from the file and from the URL.
        let count =
            |input: &str| stdout(&gridsat(&[&[command, input], extra, &["--count"]].concat()));
        assert_eq!(count(file), count(&url), "{file}");
    }
}

#[test]
fn malformed_urls_say_where_and_what() {
    for (command, url, needle) in [
        (
            "star-battle",
            "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jp",
            "at character 48: the borders between rows end early",
        ),
        (
            "star-battle",
            "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c",
            "this is a 'battleship' URL; this command reads 'starbattle' URLs",
        ),
        (
            "battleship",
            "https://puzz.link/p?battleship/2/5/m7hai89g/2/22u/22u",
            "the corner of a bent piece",
        ),
        (
            "battleship",
            "https://puzz.link/p?battleship/7/7/ti5s1i5g3g4g5i2s5i/5/31s/31s/31s/31s/33bk",
            "piece 5 (3 x 3) is not a straight ship",
        ),
        (
            "battleship",
            "https://example.org/p?battleship/6/6/g12h2g30g3gk0r3w//c",
            "expected one of the sites",
        ),
    ] {
        let out = gridsat(&[command, url]);
        assert_eq!(out.status.code(), Some(2), "{url}");
        let err = stderr(&out);
        assert!(
            err.starts_with(&format!("gridsat: {url}: at character ")),
            "{err}"
        );
        assert!(err.contains(needle), "{url}: {err}");
    }
}

#[test]
fn puzzles_without_a_url_form_say_why() {
    let out = gridsat(&[
        "battleship",
        "examples/battleship/puzzle_sample_unknowns.txt",
        "--format",
        "url",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("'unknown' ship"), "{}", stderr(&out));
    let split = write_temp("1\nABA\nBBB\nCCC\n");
    let out = gridsat(&[
        "star-battle",
        split.path().to_str().unwrap(),
        "--format",
        "url",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("zone 'A' is in more than one piece"),
        "{}",
        stderr(&out)
    );
    let out = gridsat(&[
        "battleship",
        "examples/battleship/puzzle_sample.txt",
        "--format",
        "grid",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// Seeded mutants of the public URLs: an answer or a located error, never a panic.
#[test]
fn mutated_urls_never_panic() {
    let urls = [
        "https://puzz.link/p?starbattle/6/6/1/2u9gn9c9jpmk",
        "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou",
        "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c",
        "https://puzz.link/p?battleship/5/4/121214021h3w/4/31s/21o/11g/11g",
    ];
    let (mut read, mut refused) = (0, 0);
    for (k, url) in urls.iter().enumerate() {
        for bytes in common::mutate::mutants(url, 2000, 15 + k as u64) {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let result = std::panic::catch_unwind(|| {
                (
                    gridsat::star_battle::url::read_url(&text).map(|_| ()),
                    gridsat::battleship::url::read_url(&text).map(|_| ()),
                )
            });
            let (a, b) = result.unwrap_or_else(|_| panic!("panicked on {text}"));
            for r in [a, b] {
                match r {
                    Ok(()) => read += 1,
                    Err(e) => {
                        refused += 1;
                        assert!(e.to_string().contains(": at character "), "{e}");
                        assert!(
                            e.position >= 1 && e.position <= text.chars().count() + 1,
                            "{e}"
                        );
                    }
                }
            }
        }
    }
    assert!(
        read > 50 && refused > 1000,
        "{read} read, {refused} refused"
    );
}
