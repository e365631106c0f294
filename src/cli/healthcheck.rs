//! `hexpost healthcheck`: one HTTP GET of the local server's `/readyz`,
//! exiting 0 on 200 and 1 on anything else. The container image has no
//! shell and no HTTP client, so its health check runs the binary itself.

use crate::config;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::process::ExitCode;
use std::time::Duration;

/// Per connect, write and read. A server that hangs is reported unhealthy by
/// us, within the orchestrator's own timeout, instead of the check being
/// killed without a word.
const TIMEOUT: Duration = Duration::from_secs(5);

pub fn run() -> ExitCode {
    match check() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hexpost healthcheck: {e}");
            // 1 and never 2, even for a bad HEXPOST_BIND: Docker reserves
            // exit code 2 in health checks.
            ExitCode::FAILURE
        }
    }
}

fn check() -> Result<(), String> {
    let bind = config::bind_from_lookup(config::env_var).map_err(|e| e.to_string())?;
    let target = local_target(bind);
    match readyz_status(target)? {
        200 => Ok(()),
        status => Err(format!("GET http://{target}/readyz answered {status}")),
    }
}

/// Where a server bound to `bind` is reached from its own host: a wildcard
/// address (0.0.0.0, [::]) over the loopback of its family, any other
/// address as it is.
fn local_target(bind: SocketAddr) -> SocketAddr {
    let ip = match bind.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, bind.port())
}

/// The status code the server at `addr` answers `GET /readyz` with.
fn readyz_status(addr: SocketAddr) -> Result<u16, String> {
    let io = |what: &str, e: std::io::Error| format!("{what} {addr}: {e}");
    let mut stream = TcpStream::connect_timeout(&addr, TIMEOUT).map_err(|e| io("connect", e))?;
    stream
        .set_read_timeout(Some(TIMEOUT))
        .and_then(|()| stream.set_write_timeout(Some(TIMEOUT)))
        .map_err(|e| io("configure", e))?;
    let request = format!(
        "GET /readyz HTTP/1.1\r\nHost: {addr}\r\nUser-Agent: hexpost-healthcheck\r\nConnection: close\r\n\r\n"
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| io("write to", e))?;
    // Only the status line matters; the cap keeps a misbehaving peer from
    // feeding an endless line.
    let mut line = String::new();
    BufReader::new(stream.take(1024))
        .read_line(&mut line)
        .map_err(|e| io("read from", e))?;
    parse_status(&line)
        .ok_or_else(|| format!("{addr} answered no HTTP status line: {:?}", line.trim_end()))
}

/// `HTTP/1.1 200 OK` → 200.
fn parse_status(line: &str) -> Option<u16> {
    let mut parts = line.split_ascii_whitespace();
    if !parts.next()?.starts_with("HTTP/") {
        return None;
    }
    let code = parts.next()?;
    if code.len() != 3 {
        return None;
    }
    code.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines() {
        assert_eq!(parse_status("HTTP/1.1 200 OK\r\n"), Some(200));
        assert_eq!(
            parse_status("HTTP/1.0 503 Service Unavailable\r\n"),
            Some(503)
        );
        assert_eq!(parse_status("HTTP/1.1 200"), Some(200));
        assert_eq!(parse_status(""), None);
        assert_eq!(parse_status("SSH-2.0-OpenSSH_9.2\r\n"), None);
        assert_eq!(parse_status("HTTP/1.1 2000 OK\r\n"), None);
    }

    #[test]
    fn wildcard_binds_are_checked_over_loopback() {
        let t = |s: &str| local_target(s.parse().unwrap()).to_string();
        assert_eq!(t("0.0.0.0:8080"), "127.0.0.1:8080");
        assert_eq!(t("[::]:8080"), "[::1]:8080");
        assert_eq!(t("127.0.0.1:9000"), "127.0.0.1:9000");
        assert_eq!(t("10.1.2.3:8080"), "10.1.2.3:8080");
    }
}
