//! A one-line progress bar on standard error for long JSON Lines runs.
//!
//! Drawn only when standard error is a terminal, so logs and pipes never see it, and redrawn
//! at most ten times a second so that drawing costs nothing next to validating.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

const REDRAW: Duration = Duration::from_millis(100);
const WIDTH: usize = 30;

pub struct Progress {
    enabled: bool,
    label: String,
    total: Option<u64>,
    bytes: u64,
    lines: u64,
    last: Option<Instant>,
    drawn: bool,
}

impl Progress {
    /// `total` is the input's size in bytes, when known, for a bar rather than a bare count.
    pub fn new(label: String, total: Option<u64>) -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            label,
            total: total.filter(|&t| t > 0),
            bytes: 0,
            lines: 0,
            last: None,
            drawn: false,
        }
    }

    /// Records one more line of `bytes` bytes and redraws if the last drawing is old enough.
    /// `before_draw` runs first so that buffered verdicts reach the terminal above the bar.
    pub fn advance(&mut self, bytes: u64, before_draw: impl FnOnce()) {
        self.bytes += bytes;
        self.lines += 1;
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        // The first drawing waits one period too, so short inputs never show a bar at all.
        let due = match self.last {
            None => {
                self.last = Some(now);
                false
            }
            Some(last) => now.duration_since(last) >= REDRAW,
        };
        if due {
            before_draw();
            self.draw();
            self.last = Some(now);
        }
    }

    fn draw(&mut self) {
        let mut line = format!("\r\x1b[2K{} ", self.label);
        if let Some(total) = self.total {
            let fraction = (self.bytes as f64 / total as f64).min(1.0);
            let filled = (fraction * WIDTH as f64) as usize;
            line.push('[');
            line.push_str(&"#".repeat(filled));
            line.push_str(&"-".repeat(WIDTH - filled));
            line.push_str(&format!("] {:3.0}% ", fraction * 100.0));
        }
        line.push_str(&format!("{} lines", self.lines));
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(line.as_bytes());
        let _ = err.flush();
        self.drawn = true;
    }

    /// Removes the bar so that the next line written to the terminal starts clean.
    pub fn hide(&mut self) {
        if self.drawn {
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(b"\r\x1b[2K");
            let _ = err.flush();
            self.drawn = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.hide();
    }
}
