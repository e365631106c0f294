//! A message sink that records what the inbound transports hand it.

use hexpost::inbound::Via;
use hexpost::inbound::transport::{MessageSink, SinkError, SinkFuture};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the sink answers each delivery with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Take,
    Later,
}

/// A message's bytes and how it came.
pub type Delivered = (Vec<u8>, Via);

#[derive(Clone)]
pub struct Recorder {
    received: Arc<Mutex<Vec<Delivered>>>,
    answer: Arc<Mutex<Answer>>,
}

impl Recorder {
    pub fn new() -> Recorder {
        Recorder {
            received: Default::default(),
            answer: Arc::new(Mutex::new(Answer::Take)),
        }
    }

    pub fn answer_with(&self, answer: Answer) {
        *self.answer.lock().unwrap() = answer;
    }

    pub fn sink(&self) -> Arc<dyn MessageSink> {
        let me = self.clone();
        Arc::new(move |raw: Vec<u8>, via: Via| -> SinkFuture {
            let answer = *me.answer.lock().unwrap();
            if answer == Answer::Take {
                me.received.lock().unwrap().push((raw, via));
            }
            Box::pin(async move {
                match answer {
                    Answer::Take => Ok(()),
                    Answer::Later => Err(SinkError::Temporary("the test says later".into())),
                }
            })
        })
    }

    pub fn received(&self) -> Vec<Delivered> {
        self.received.lock().unwrap().clone()
    }

    /// Waits (up to 30 s) until at least `n` messages arrived.
    pub async fn wait_for(&self, n: usize) -> Vec<Delivered> {
        let start = Instant::now();
        while self.received().len() < n {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "expected {n} messages, got {}",
                self.received().len()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        self.received()
    }
}

/// A small reply mail, different for each `n`, with CRLF line ends as it
/// travels.
pub fn reply(n: usize) -> Vec<u8> {
    format!(
        "From: Ann <ann@players.example>\r\nTo: r-{n}@replies.example\r\n\
         Subject: Re: your move\r\nMessage-ID: <{n}@players.example>\r\n\r\n\
         R\r\n.a line that starts with a dot\r\nE\r\n"
    )
    .into_bytes()
}
