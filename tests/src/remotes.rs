//! The suite's `remotes/` directory as registry documents. Shared by the build script (which
//! compiles schemas against them) and the tests (which interpret against them).

use serde_json::Value;
use std::path::Path;

/// Every file under `root`, as served at `http://localhost:1234/…`, sorted by URI.
pub fn read(root: &Path) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("remotes directory") {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                let relative = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                let value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                out.push((format!("http://localhost:1234/{relative}"), value));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}
