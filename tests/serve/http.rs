//! A running `gridsat serve`, and a small HTTP/1.1 client over a TCP socket (for the
//! server's API and for chromedriver's WebDriver API alike): no client crate needed.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// `gridsat serve --port 0`, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`
    pub address: String,
}

impl Server {
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gridsat"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .spawn()
            .expect("gridsat serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "gridsat serve: http://127.0.0.1:PORT/ (Ctrl-C stops it)"
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, address }
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// `POST PATH` with a JSON body; the status and the body read back.
    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        request(&self.address, "POST", path, &[JSON], body.as_bytes())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub const JSON: (&str, &str) = ("Content-Type", "application/json");

/// One request on a connection of its own; the status and the body.
pub fn request(
    address: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    // The server may answer (and close) before reading a refused body: keep what it says.
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body));
    // Read by Content-Length: chromedriver keeps the connection open after answering.
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP answer: {head:?}"));
    let lower = head.to_ascii_lowercase();
    let length = lower
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|n| n.trim().parse::<usize>().ok());
    let mut bytes = Vec::new();
    match length {
        Some(n) => {
            bytes.resize(n, 0);
            reader.read_exact(&mut bytes).expect("the whole body");
        }
        None => {
            let _ = reader.read_to_end(&mut bytes);
        }
    }
    if lower.contains("transfer-encoding: chunked") {
        bytes = unchunk(&bytes);
    }
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// The body of a chunked answer. Chunks are cut by bytes, not characters (a chunk may
/// end inside a UTF-8 character), so they are joined before the text is decoded.
fn unchunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = body.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&body[..end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.trim(), 16).ok())
            .expect("a chunk size");
        let rest = &body[end + 2..];
        if size == 0 {
            break;
        }
        assert!(rest.len() >= size, "a chunk cut short");
        out.extend_from_slice(&rest[..size]);
        body = rest[size..].strip_prefix(b"\r\n").unwrap_or(&rest[size..]);
    }
    out
}
