//! A real name server for the sender check of replies: it answers TXT
//! queries over UDP on a free loopback port from records the test
//! publishes (DKIM keys, DMARC policies), and every other name with
//! NXDOMAIN. The wire format is hickory's, the resolver's own.

use mail_auth::hickory_resolver::proto::op::{Message, ResponseCode};
use mail_auth::hickory_resolver::proto::rr::rdata::TXT;
use mail_auth::hickory_resolver::proto::rr::{RData, Record, RecordType};
use std::collections::HashMap;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Records = Arc<Mutex<HashMap<String, String>>>;

pub struct NameServer {
    pub addr: SocketAddr,
    records: Records,
    stop: Arc<AtomicBool>,
    failing: Arc<AtomicBool>,
}

impl NameServer {
    pub fn running() -> NameServer {
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        socket
            .set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let addr = socket.local_addr().unwrap();
        let records = Records::default();
        let stop = Arc::new(AtomicBool::new(false));
        let failing = Arc::new(AtomicBool::new(false));
        let (known, stopped, fails) = (records.clone(), stop.clone(), failing.clone());
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while !stopped.load(Ordering::Relaxed) {
                let Ok((n, peer)) = socket.recv_from(&mut buf) else {
                    continue;
                };
                let fail = fails.load(Ordering::Relaxed);
                if let Some(answer) = answer(&buf[..n], &known, fail) {
                    let _ = socket.send_to(&answer, peer);
                }
            }
        });
        NameServer {
            addr,
            records,
            stop,
            failing,
        }
    }

    /// While `failing`, every query is answered SERVFAIL, as a name server
    /// that cannot reach the zone's own servers answers.
    pub fn set_failing(&self, failing: bool) {
        self.failing.store(failing, Ordering::Relaxed);
    }

    /// Publishes a TXT record at `name`.
    pub fn publish(&self, name: &str, text: &str) {
        self.records
            .lock()
            .unwrap()
            .insert(name.trim_end_matches('.').to_ascii_lowercase(), text.into());
    }
}

impl Drop for NameServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn answer(query: &[u8], records: &Records, fail: bool) -> Option<Vec<u8>> {
    let request = Message::from_vec(query).ok()?;
    let question = request.queries.first()?.clone();
    let mut response = Message::response(request.metadata.id, request.metadata.op_code);
    response.metadata.recursion_desired = request.metadata.recursion_desired;
    response.metadata.recursion_available = true;
    response.add_query(question.clone());
    if fail {
        response.metadata.response_code = ResponseCode::ServFail;
        return response.to_vec().ok();
    }
    let name = question.name().to_ascii();
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    match records.lock().unwrap().get(&name) {
        Some(text) if question.query_type() == RecordType::TXT => {
            // A TXT string holds at most 255 bytes; longer records are
            // split, and the reader joins them again.
            let parts = text
                .as_bytes()
                .chunks(255)
                .map(|part| String::from_utf8_lossy(part).into_owned())
                .collect();
            response.add_answer(Record::from_rdata(
                question.name().clone(),
                60,
                RData::TXT(TXT::new(parts)),
            ));
        }
        Some(_) => {}
        None => response.metadata.response_code = ResponseCode::NXDomain,
    }
    response.to_vec().ok()
}
