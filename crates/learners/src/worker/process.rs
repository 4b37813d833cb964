//! One running worker process: started with pipes on its three streams, written to by a thread
//! of its own (so that a worker that stops reading never blocks the runner), read through a
//! thread that hands over its standard output in chunks (so that every read has a deadline),
//! and its standard error kept as a tail for messages.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

use crate::worker::protocol::{self, Welcome};

/// How many bytes of the worker's standard error are kept.
const STDERR_KEPT: usize = 16 << 10;
/// How many characters of it a message quotes.
const STDERR_QUOTED: usize = 2000;
/// How long a worker may take to exit after BYE, or to flush its standard error after it
/// closed its output.
const GRACE: Duration = Duration::from_secs(2);

/// How to start a worker.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Environment variables set for it (on top of the runner's).
    pub env: Vec<(String, String)>,
    /// The learner's options, sent in HELLO (JSON text).
    pub options: String,
    /// Time limit of the start and the handshake.
    pub start_timeout: Duration,
    /// Time limit of one unit.
    pub unit_timeout: Duration,
    /// Where the unit's time limit comes from, for messages: `"timeout_seconds"` (the
    /// learner's), `"timeout_seconds, the default"`, `"the config's worker_timeout_seconds"`.
    pub unit_timeout_source: &'static str,
    /// What the worker needs to start, added to the message when it cannot be started or
    /// exits during its handshake (e.g. the Python worker's interpreter and package).
    pub start_hint: Option<String>,
}

impl Launch {
    /// The command line as a user would type it, for messages.
    pub fn command_line(&self) -> String {
        std::iter::once(self.program.display().to_string())
            .chain(self.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `message` (why a worker could not start) with [`Launch::start_hint`], if any.
    pub fn with_hint(&self, message: String) -> String {
        match &self.start_hint {
            Some(hint) => format!("{message}\n({hint})"),
            None => message,
        }
    }

    /// What the run's log says of a learner whose first worker started: its command and the
    /// time limits that apply.
    pub fn started_note(&self) -> String {
        format!(
            "its worker `{}` started; a unit that does not answer within {} s ({}) fails, a \
             new worker's handshake has {} s (start_timeout_seconds)",
            self.command_line(),
            self.unit_timeout.as_secs_f64(),
            self.unit_timeout_source,
            self.start_timeout.as_secs_f64()
        )
    }
}

/// What went wrong while talking to a worker. Every kind but `Refused` leaves the worker
/// unusable.
#[derive(Debug)]
pub enum Failure {
    /// No complete frame within the time limit.
    Timeout(Duration),
    /// The worker closed its output (exited or crashed).
    Closed,
    /// Bytes that are not a frame the runner expects.
    Malformed(String),
    /// Reading the worker's output failed.
    Io(String),
}

/// A chunk of the worker's standard output, or its end.
enum Chunk {
    Bytes(Vec<u8>),
    End,
    Error(String),
}

/// A started worker process and its threads.
pub struct Process {
    child: Child,
    command_line: String,
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<Chunk>,
    /// Bytes read but not yet taken: `pending[taken..]`.
    pending: Vec<u8>,
    taken: usize,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    stderr_done: Receiver<()>,
}

impl Process {
    /// Starts the worker; nothing is sent yet.
    pub fn start(launch: &Launch) -> Result<Process, String> {
        let mut command = Command::new(&launch.program);
        command
            .args(&launch.args)
            .envs(launch.env.iter().map(|(key, value)| (key, value)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().map_err(|error| {
            launch.with_hint(format!(
                "cannot start the worker `{}`: {error}",
                launch.command_line()
            ))
        })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (input, to_write) = mpsc::channel();
        std::thread::spawn(move || write_all(stdin, to_write));
        let (chunks, output) = mpsc::channel();
        std::thread::spawn(move || read_chunks(stdout, chunks));
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let (done, stderr_done) = mpsc::channel();
        let kept = Arc::clone(&tail);
        std::thread::spawn(move || keep_tail(stderr, kept, done));
        Ok(Process {
            child,
            command_line: launch.command_line(),
            input: Some(input),
            output,
            pending: Vec::new(),
            taken: 0,
            stderr: tail,
            stderr_done,
        })
    }

    /// Hands bytes to the writer thread; never blocks. A worker that has exited shows as a
    /// closed output at the next read.
    pub fn send(&mut self, bytes: Vec<u8>) {
        if let Some(input) = &self.input {
            let _ = input.send(bytes);
        }
    }

    /// Reads one frame: its type and body. `allowed` gives, for each type the runner expects
    /// now, the largest length field it accepts; anything else is malformed, and a length of 0
    /// (no type byte) is reported as soon as its four bytes arrive.
    pub fn receive(
        &mut self,
        deadline: Instant,
        timeout: Duration,
        allowed: &[(u8, u64)],
    ) -> Result<(u8, Vec<u8>), Failure> {
        self.fill(4, deadline, timeout)?;
        let start = self.taken;
        let length =
            u32::from_le_bytes(self.pending[start..start + 4].try_into().expect("4 bytes")) as u64;
        let kind = if length == 0 {
            None
        } else {
            self.fill(5, deadline, timeout)?;
            Some(self.pending[start + 4])
        };
        let fits = kind.is_some_and(|kind| {
            allowed
                .iter()
                .any(|&(wanted, longest)| wanted == kind && length <= longest)
        });
        let Some(kind) = kind.filter(|_| fits) else {
            return Err(Failure::Malformed(
                self.describe_garbage(length, kind, allowed),
            ));
        };
        self.taken += 5;
        let body = self.read_exact(length as usize - 1, deadline, timeout)?;
        Ok((kind, body))
    }

    /// The message for a frame header the runner did not expect (`kind` is None for a length
    /// of 0, which leaves no room for a type byte), quoting the bytes not yet taken.
    fn describe_garbage(&self, length: u64, kind: Option<u8>, allowed: &[(u8, u64)]) -> String {
        let rest = &self.pending[self.taken..];
        let bytes = &rest[..rest.len().min(65)];
        let expected: Vec<String> = allowed
            .iter()
            .map(|&(kind, longest)| {
                format!(
                    "type 0x{kind:02x} ({}) of length at most {longest}",
                    protocol::type_name(kind)
                )
            })
            .collect();
        let header = match kind {
            Some(kind) => format!("length {length}, type 0x{kind:02x}"),
            None => "length 0 (a frame's length counts its type byte and body, so it is at \
                     least 1)"
                .to_string(),
        };
        format!(
            "a malformed frame: {header}, where the runner expects {}; the output began with \
             {:?} (a worker must write nothing but frames to its standard output: print \
             messages to standard error)",
            expected.join(" or "),
            String::from_utf8_lossy(bytes)
        )
    }

    /// Waits until at least `count` bytes are read and not yet taken.
    fn fill(&mut self, count: usize, deadline: Instant, timeout: Duration) -> Result<(), Failure> {
        if self.taken == self.pending.len() {
            self.pending.clear();
            self.taken = 0;
        }
        while self.pending.len() - self.taken < count {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(Chunk::Bytes(bytes)) => self.pending.extend_from_slice(&bytes),
                Ok(Chunk::End) | Err(RecvTimeoutError::Disconnected) => {
                    let held = self.pending.len() - self.taken;
                    return Err(if held == 0 {
                        Failure::Closed
                    } else {
                        Failure::Malformed(format!(
                            "a short frame: the worker's output ended after {held} of the \
                             {count} bytes expected"
                        ))
                    });
                }
                Ok(Chunk::Error(error)) => return Err(Failure::Io(error)),
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout(timeout)),
            }
        }
        Ok(())
    }

    /// Takes the next `count` bytes, waiting for them.
    fn read_exact(
        &mut self,
        count: usize,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<Vec<u8>, Failure> {
        self.fill(count, deadline, timeout)?;
        let bytes = self.pending[self.taken..self.taken + count].to_vec();
        self.taken += count;
        Ok(bytes)
    }

    /// Sends HELLO with the options and reads the answer: the worker's welcome, or why there
    /// is none (a refusal, an exit, a time-out, a malformed answer), with its stderr tail.
    pub fn handshake(&mut self, launch: &Launch) -> Result<Welcome, String> {
        let mut hello = Vec::new();
        protocol::hello(&mut hello, &launch.options);
        self.send(hello);
        let limit = launch.start_timeout;
        let allowed = [
            (protocol::WELCOME, protocol::MAX_TEXT_FRAME),
            (protocol::ERROR, protocol::MAX_TEXT_FRAME),
        ];
        let (kind, body) = self
            .receive(Instant::now() + limit, limit, &allowed)
            .map_err(|failure| {
                let exited = matches!(failure, Failure::Closed);
                let message =
                    self.failure_message(failure, "its handshake", "start_timeout_seconds");
                if exited {
                    launch.with_hint(message)
                } else {
                    message
                }
            })?;
        if kind == protocol::ERROR {
            let message = protocol::parse_error(&body).unwrap_or_else(|problem| problem);
            return Err(format!("the worker refused to start: {message}"));
        }
        let welcome = protocol::parse_welcome(&body).map_err(|problem| {
            self.failure_message(Failure::Malformed(problem), "its handshake", "")
        })?;
        if welcome.version != protocol::VERSION {
            return Err(format!(
                "the worker speaks protocol version {}, this runner version {} (see \
                 docs/worker-protocol.md)",
                welcome.version,
                protocol::VERSION
            ));
        }
        Ok(welcome)
    }

    /// A failure as a sentence, ending with the worker's stderr tail; the worker is stopped
    /// first (a failed worker is never reused). `during` says what it was doing, `limit` names
    /// the time-limit option.
    pub fn failure_message(&mut self, failure: Failure, during: &str, limit: &str) -> String {
        let what = match failure {
            Failure::Timeout(timeout) => format!(
                "the worker did not answer {during} within {} s ({limit}) and was stopped",
                timeout.as_secs_f64()
            ),
            Failure::Closed => {
                let status = match self.child.wait_timeout(GRACE) {
                    Ok(Some(status)) => status.to_string(),
                    _ => "still running; stopped".to_string(),
                };
                format!("the worker exited during {during} ({status})")
            }
            Failure::Malformed(problem) => format!("during {during}, the worker sent {problem}"),
            Failure::Io(error) => format!("reading the worker's output failed: {error}"),
        };
        self.kill();
        let tail = self.stderr_tail();
        format!("{what}; worker `{}`; {tail}", self.command_line)
    }

    /// The last characters of the worker's standard error, as a sentence.
    pub fn stderr_tail(&mut self) -> String {
        // A worker that has exited may still be flushing its standard error.
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.stderr_done.recv_timeout(Duration::from_millis(300));
        }
        let bytes: Vec<u8> = self.stderr.lock().map_or_else(
            |poisoned| poisoned.into_inner().iter().copied().collect(),
            |kept| kept.iter().copied().collect(),
        );
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim_end();
        let count = text.chars().count();
        let tail: String = text
            .chars()
            .skip(count.saturating_sub(STDERR_QUOTED))
            .collect();
        if tail.trim().is_empty() {
            "its standard error was empty".to_string()
        } else {
            format!("its standard error ended with:\n{tail}")
        }
    }

    /// Forgets what the worker wrote to standard error so far (before a new unit).
    pub fn clear_stderr(&mut self) {
        if let Ok(mut kept) = self.stderr.lock() {
            kept.clear();
        }
    }

    /// Stops the worker at once.
    pub fn kill(&mut self) {
        self.input = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Asks the worker to stop (BYE, then its input closed) and waits a moment; stops it if it
    /// does not exit.
    pub fn shut_down(mut self) {
        let mut bye = Vec::new();
        protocol::bye(&mut bye);
        self.send(bye);
        self.input = None;
        match self.child.wait_timeout(GRACE) {
            Ok(Some(_)) => {}
            _ => self.kill(),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill();
        }
    }
}

/// The writer thread: writes each buffer in order, stops at the first error or when the
/// process's sender is dropped (which closes the worker's input).
fn write_all(mut stdin: ChildStdin, buffers: Receiver<Vec<u8>>) {
    for buffer in buffers {
        if stdin
            .write_all(&buffer)
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

/// The reader thread: hands over the worker's standard output in chunks as it comes.
fn read_chunks(mut stdout: impl Read, chunks: Sender<Chunk>) {
    let mut buffer = vec![0u8; 64 << 10];
    loop {
        let chunk = match stdout.read(&mut buffer) {
            Ok(0) => Chunk::End,
            Ok(count) => Chunk::Bytes(buffer[..count].to_vec()),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => Chunk::Error(error.to_string()),
        };
        let last = !matches!(chunk, Chunk::Bytes(_));
        if chunks.send(chunk).is_err() || last {
            return;
        }
    }
}

/// The standard-error thread: keeps the last bytes, says when the stream ends.
fn keep_tail(mut stderr: impl Read, kept: Arc<Mutex<VecDeque<u8>>>, done: Sender<()>) {
    let mut buffer = vec![0u8; 8 << 10];
    while let Ok(count) = stderr.read(&mut buffer) {
        if count == 0 {
            break;
        }
        let Ok(mut tail) = kept.lock() else { break };
        tail.extend(&buffer[..count]);
        let excess = tail.len().saturating_sub(STDERR_KEPT);
        tail.drain(..excess);
    }
    let _ = done.send(());
}
