//! A TCP forwarder between a server and its PostgreSQL that the test can
//! cut: every forwarded connection is closed and new ones are refused, as
//! when the database goes down, until it is restored on the same port.
//! (The machine's PostgreSQL serves other tests and is never stopped.)

use std::io::ErrorKind;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct Forwarder {
    pub port: u16,
    up: Arc<AtomicBool>,
    streams: Arc<Mutex<Vec<TcpStream>>>,
    stop: Arc<AtomicBool>,
}

impl Forwarder {
    /// Forwards a free loopback port to `target` (`host:port`).
    pub fn start(target: &str) -> Forwarder {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let forwarder = Forwarder {
            port,
            up: Arc::new(AtomicBool::new(true)),
            streams: Default::default(),
            stop: Arc::new(AtomicBool::new(false)),
        };
        let (up, streams, stop) = (
            forwarder.up.clone(),
            forwarder.streams.clone(),
            forwarder.stop.clone(),
        );
        let target = target.to_string();
        std::thread::spawn(move || {
            let mut listener = Some(listener);
            while !stop.load(Ordering::SeqCst) {
                match (&listener, up.load(Ordering::SeqCst)) {
                    (Some(_), false) => listener = None,
                    (None, true) => listener = TcpListener::bind(("127.0.0.1", port)).ok(),
                    _ => {}
                }
                let Some(l) = &listener else {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                };
                l.set_nonblocking(true).unwrap();
                match l.accept() {
                    Ok((client, _)) => forward(client, &target, &streams),
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(5))
                    }
                    Err(e) => panic!("forwarder: {e}"),
                }
            }
        });
        forwarder
    }

    /// `url` with its `host:port` replaced by this forwarder's.
    pub fn route(&self, url: &str) -> String {
        let (scheme, rest) = url.split_once("://").unwrap();
        let (authority, path) = rest.split_once('/').unwrap();
        let user = authority.rsplit_once('@').map_or("", |(u, _)| u);
        let at = if user.is_empty() { "" } else { "@" };
        format!("{scheme}://{user}{at}127.0.0.1:{}/{path}", self.port)
    }

    /// The database "goes down": open connections are closed, new ones
    /// refused.
    pub fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        // The listener is dropped on the accept thread's next turn, after
        // any connection it was forwarding is in the list.
        std::thread::sleep(Duration::from_millis(50));
        for s in self.streams.lock().unwrap().drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }

    /// It is back, on the same port.
    pub fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}

impl Drop for Forwarder {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.cut();
    }
}

/// Copies both ways between `client` and a new connection to `target`.
fn forward(client: TcpStream, target: &str, streams: &Mutex<Vec<TcpStream>>) {
    client.set_nonblocking(false).unwrap();
    let Ok(server) = TcpStream::connect(target) else {
        return;
    };
    let mut list = streams.lock().unwrap();
    for (from, to) in [(&client, &server), (&server, &client)] {
        let (mut from, mut to) = (from.try_clone().unwrap(), to.try_clone().unwrap());
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut from, &mut to);
            let _ = to.shutdown(Shutdown::Both);
            let _ = from.shutdown(Shutdown::Both);
        });
    }
    list.push(client);
    list.push(server);
}
