//! `strackgen model replay` (`docs/trace-format.md`): a JSON-lines trace through a golden
//! model, one answer per line, streamed.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::{BufRead, Write};

/// Feed each line to `step` and write its answer at once (the output streams): output line N
/// answers input line N. A bad line gets an error object in its place
/// (`{"error": {"line": N, "column": C, "message": ...}}`), its message on stderr, and does
/// not reach the model; a blank line is answered by a blank line. A closed standard output
/// ends the run quietly. Returns the number of bad lines.
pub fn run<I, O>(reader: Box<dyn BufRead>, mut step: impl FnMut(&I) -> O) -> Result<usize, String>
where
    I: DeserializeOwned,
    O: Serialize,
{
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut bad = 0;
    let mut reader = reader;
    let mut raw = Vec::new();
    for n in 1.. {
        raw.clear();
        let got = reader
            .read_until(b'\n', &mut raw)
            .map_err(|e| format!("line {n}: cannot read: {e}"))?;
        if got == 0 {
            break;
        }
        let answer = match std::str::from_utf8(&raw) {
            Err(e) => {
                let column = e.valid_up_to() + 1;
                Err((column, "not UTF-8".to_string()))
            }
            Ok(line) if line.trim().is_empty() => Ok(String::new()),
            Ok(line) => match serde_json::from_str::<I>(line) {
                Ok(input) => Ok(serde_json::to_string(&step(&input)).map_err(|e| e.to_string())?),
                Err(e) => Err((e.column(), json_message(&e))),
            },
        };
        let text = match answer {
            Ok(text) => text,
            Err((column, message)) => {
                bad += 1;
                eprintln!("line {n}, column {column}: {message}");
                serde_json::json!({"error": {"line": n, "column": column, "message": message}})
                    .to_string()
            }
        };
        match writeln!(out, "{text}").and_then(|_| out.flush()) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(bad),
            Err(e) => return Err(format!("cannot write the output: {e}")),
        }
    }
    Ok(bad)
}

/// serde_json's message without its own (always line 1) position.
pub fn json_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    text.rfind(" at line ")
        .map_or(text.as_str(), |i| &text[..i])
        .to_string()
}
