//! `gridsat count-cnf` end to end: counts, listing, and errors naming file and line.

use std::io::Write;
use std::process::{Command, Output};

fn run(text: &str, extra: &[&str]) -> (Output, String) {
    let mut file = tempfile::Builder::new().suffix(".cnf").tempfile().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    let path = file.path().display().to_string();
    let output = Command::new(env!("CARGO_BIN_EXE_gridsat"))
        .arg("count-cnf")
        .args(extra)
        .arg(&path)
        .output()
        .unwrap();
    (output, path)
}

#[test]
fn counts_all_models_without_a_show_line() {
    // x1=0 forces x2, x3 free: 2; x1=1 forces x3, x2 free: 2.
    let (out, _) = run("p cnf 3 2\n1 2 0\n-1 3 0\n", &[]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "4\n");
}

#[test]
fn honours_the_projection_and_lists_it() {
    let text = "c p show 1 2 0\np cnf 3 2\n1 2 0\n-1 3 0\n";
    let (out, _) = run(text, &[]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "3\n");
    let (out, _) = run(text, &["--list"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.pop(), Some("3"));
    lines.sort();
    assert_eq!(lines, ["v -1 2 0", "v 1 -2 0", "v 1 2 0"]);
}

#[test]
fn unsatisfiable_and_sampling_set_forms() {
    let (out, _) = run("p cnf 1 2\n1 0\n-1 0\n", &[]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "0\n");
    // `c ind` (the sampling-set spelling) projects like `c p show`: x2 is free here,
    // x3 is forced by x1 | x3 only when x1 is false, so {x1, x2} take all 4 values.
    let (out, _) = run("c ind 1 2 0\np cnf 3 1\n1 3 0\n", &[]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "4\n");
    let (out, _) = run("c ind 1 2 0\np cnf 3 1\n1 3 0\n", &["--list"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 5);
}

#[test]
fn counts_beyond_u64() {
    let (out, _) = run("p cnf 100 0\n", &[]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "1267650600228229401496703205376\n"
    );
}

#[test]
fn errors_name_file_and_line() {
    let (out, path) = run("p cnf 2 1\n1 5 0\n", &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(&format!("{path}:2: literal 5 names a variable beyond")),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}
