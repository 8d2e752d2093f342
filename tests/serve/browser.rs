//! The page in a real browser: headless Chromium, driven through chromedriver's WebDriver
//! API (HTTP and JSON, with `http::request`), types a puzz.link URL, presses the
//! buttons and reads what the page shows. Skipped, with a message, where chromedriver
//! is not installed (`apt-get install chromium chromium-driver`; `.ci/run` installs it).
//! With `GRIDSAT_REQUIRE_BROWSER` set (as `.ci/run` does) a missing chromedriver fails
//! the test instead. With `GRIDSAT_SCREENSHOTS=DIR` it saves the README's screenshots there.

use super::http::{request, Server, JSON};
use serde_json::{json, Value};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// chromedriver on a free port, killed when dropped.
struct Driver {
    child: Child,
    address: String,
}

impl Driver {
    fn start() -> Option<Driver> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .ok()?
            .local_addr()
            .ok()?
            .port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let driver = Driver {
            child,
            address: format!("127.0.0.1:{port}"),
        };
        let began = Instant::now();
        while std::net::TcpStream::connect(&driver.address).is_err() {
            assert!(
                began.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(driver)
    }

    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let body = if method == "GET" || method == "DELETE" {
            String::new()
        } else {
            body.to_string()
        };
        let (status, text) = request(&self.address, method, path, &[JSON], body.as_bytes());
        let value: Value = serde_json::from_str(&text)
            .unwrap_or_else(|_| panic!("chromedriver answered {status}: {text}"));
        assert_eq!(status, 200, "{method} {path}: {value}");
        value["value"].clone()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser window.
struct Browser<'d> {
    driver: &'d Driver,
    session: String,
}

impl<'d> Browser<'d> {
    fn open(driver: &'d Driver) -> Browser<'d> {
        let args = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--window-size=1280,1000",
        ];
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"args": args},
        }}});
        let session = driver.call("POST", "/session", capabilities)["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        Browser { driver, session }
    }

    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        self.driver
            .call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", json!({ "url": url }));
    }

    fn find(&self, css: &str) -> String {
        let found = self.call(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    fn count(&self, css: &str) -> usize {
        let found = self.call(
            "POST",
            "/elements",
            json!({"using": "css selector", "value": css}),
        );
        found.as_array().map_or(0, Vec::len)
    }

    /// Types into a field, as a person would (after clearing it).
    fn type_into(&self, css: &str, text: &str) {
        let element = self.find(css);
        self.call("POST", &format!("/element/{element}/clear"), json!({}));
        if text.is_empty() {
            return;
        }
        self.call(
            "POST",
            &format!("/element/{element}/value"),
            json!({ "text": text }),
        );
    }

    fn click(&self, css: &str) {
        let element = self.find(css);
        self.call("POST", &format!("/element/{element}/click"), json!({}));
    }

    fn text(&self, css: &str) -> String {
        let element = self.find(css);
        self.call("GET", &format!("/element/{element}/text"), json!({}))
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    fn script(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": []}),
        )
    }

    /// Waits until the page has shown the answer to the last button pressed.
    fn wait_for_answer(&self) {
        let began = Instant::now();
        loop {
            let state = self.script("return document.body.dataset.state;");
            if state == "done" {
                return;
            }
            assert!(
                began.elapsed() < Duration::from_secs(60),
                "no answer on the page"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn press(&self, button: &str) {
        self.script("document.body.dataset.state = 'pressed';");
        self.click(button);
        self.wait_for_answer();
    }

    fn screenshot(&self, name: &str) {
        let Some(dir) = std::env::var_os("GRIDSAT_SCREENSHOTS") else {
            return;
        };
        let png = self.call("GET", "/screenshot", json!({}));
        let bytes = base64_decode(png.as_str().unwrap());
        std::fs::write(std::path::Path::new(&dir).join(name), bytes).unwrap();
    }
}

impl Drop for Browser<'_> {
    fn drop(&mut self) {
        let _ = request(
            &self.driver.address,
            "DELETE",
            &format!("/session/{}", self.session),
            &[],
            b"",
        );
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
        .map(value)
        .collect();
    digits
        .chunks(4)
        .flat_map(|q| {
            let n = q
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, d)| n | (u32::from(*d) << (18 - 6 * i)));
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            bytes.into_iter().take(q.len() - 1)
        })
        .collect()
}

#[test]
fn the_page_in_a_real_browser_answers_with_verdicts_pictures_and_errors() {
    if Command::new("chromedriver")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("GRIDSAT_REQUIRE_BROWSER").is_none(),
            "GRIDSAT_REQUIRE_BROWSER is set and chromedriver is not installed"
        );
        eprintln!(
            "skipped: chromedriver is not installed (apt-get install chromium chromium-driver); \
             .ci/run installs it and runs this test"
        );
        return;
    }
    let server = Server::start(&[]);
    let driver = Driver::start().expect("chromedriver starts");
    let browser = Browser::open(&driver);
    browser.go(&server.url());
    assert!(browser
        .text("#privacy")
        .contains("Your puzzle never leaves this machine"));

    // A unique Star Battle, typed as a URL: the verdict, and the CLI's picture in the page.
    browser.type_into("#puzzle", super::UNIQUE);
    browser.press("#unique");
    assert_eq!(browser.text("#verdict"), "Unique");
    assert_eq!(browser.count("#picture svg"), 1);
    assert!(browser.count("#picture svg *") > 10);
    assert!(browser.text("#text").starts_with("Unique solution:\n"));
    browser.screenshot("unique.png");

    // A Battleship with several solutions: the repair proposals.
    browser.type_into("#puzzle", super::BATTLESHIP);
    browser.press("#repair");
    let verdict = browser.text("#verdict");
    let repairs = browser.count("#repairs li");
    assert!(
        verdict.starts_with("Not unique: 4 cells differ"),
        "{verdict}"
    );
    assert_eq!(repairs, 1);
    assert_eq!(
        browser.text("#repairs li"),
        "constraint 2 5 X; constraint 4 3 X; constraint 6 7 o \u{2192} unique"
    );
    assert_eq!(browser.count("#picture svg"), 1);
    browser.screenshot("repair.png");

    // A bad file: the CLI's message, and no picture.
    browser.type_into("#puzzle", "3 3\na 2\n0 0\n0 9\n");
    browser.click("#kind option[value=star-battle]");
    browser.type_into("#stars", "1");
    browser.press("#solve");
    assert_eq!(browser.text("#verdict"), "Bad input");
    let error = browser.text("#error");
    assert!(
        error.starts_with("gridsat: pasted.txt:4: cell (x=0, y=9)"),
        "{error}"
    );
    assert_eq!(browser.count("#picture svg"), 0);
    browser.screenshot("error.png");

    // Stop: a hard XSokoban level that takes minutes, pasted, then the Stop button.
    let map = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/xsokoban-50.xsb"),
    )
    .unwrap();
    browser.script(&format!(
        "document.getElementById('puzzle').value = {};",
        serde_json::to_string(&map).unwrap()
    ));
    browser.click("#kind option[value=sokoban]");
    browser.type_into("#stars", "");
    browser.script("document.body.dataset.state = 'pressed';");
    browser.click("#solve");
    let began = Instant::now();
    while browser.script("return document.body.dataset.state;") != "running" {
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "the run did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    browser.click("#stop");
    browser.wait_for_answer();
    assert_eq!(browser.text("#verdict"), "Stopped");
    assert_eq!(browser.text("#error"), "stopped");
    assert!(began.elapsed() < Duration::from_secs(10));

    // Generate: a proven unique puzzle, put in the box and checked.
    browser.click("#kind option[value='']");
    browser.type_into("#gen-seed", "3");
    browser.click("#generate");
    let began = Instant::now();
    // Generate, then Unique on what it made: two more lines of history (six in all).
    while browser.count("#history li") < 6 {
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "no generated puzzle"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(browser.text("#verdict"), "Unique");
    let puzzle = browser.script("return document.getElementById('puzzle').value;");
    assert!(
        puzzle
            .as_str()
            .unwrap()
            .starts_with("https://puzz.link/p?starbattle/6/6/"),
        "{puzzle}"
    );
    let history = browser.text("#history");
    assert!(
        history.contains("star-battle · unique · Unique"),
        "{history}"
    );
    assert!(
        history.contains("star-battle · generate · Generated"),
        "{history}"
    );
    assert!(history.contains("solve · Bad input"), "{history}");
    browser.screenshot("generate.png");
}
