//! Where an engine's settings come from before its spec is read: the words of `--each` (shared by
//! every engine), a named engine of an engines file (`conf=NAME`, `--engines-file`), and the
//! engine's own words, later ones winning. The limit words (`tc=`, `movetime=`, `depth=`,
//! `nodes=`, `margin=`) are the manager's and are taken out here; the rest goes to
//! [`EngineSpec::parse`](super::process::EngineSpec::parse).

use super::limits::{TimeControl, parse_seconds, parse_tc};
use super::process::split_words;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// The largest engines file read.
const MAX_CONF_BYTES: u64 = 4 << 20;

/// One named engine of an engines file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfEngine {
    /// The name `conf=NAME` looks for; also the engine's display name.
    pub name: String,
    /// The command line, as an `--engine` value holds it.
    pub command: String,
    /// Working directory.
    #[serde(default)]
    pub dir: Option<String>,
    /// Dialect: hub, hub1 or uci.
    #[serde(default)]
    pub proto: Option<String>,
    /// Engine parameters (strings, numbers or booleans).
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
    /// Game clock, as `--tc` writes it.
    #[serde(default)]
    pub tc: Option<String>,
    /// Seconds a move.
    #[serde(default)]
    pub movetime: Option<f64>,
    /// Depth a move.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Nodes a move.
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Milliseconds the engine may overrun its clock.
    #[serde(default)]
    pub margin: Option<u64>,
    /// A new process for every game (`restart=on`).
    #[serde(default)]
    pub restart: bool,
}

impl ConfEngine {
    /// The engine as the words of an `--engine` value.
    fn words(&self) -> Result<Vec<String>, String> {
        let mut w = split_words(&self.command)?;
        w.push(format!("name={}", self.name));
        if let Some(d) = &self.dir {
            w.push(format!("dir={d}"));
        }
        if let Some(p) = &self.proto {
            w.push(format!("proto={p}"));
        }
        for (k, v) in &self.options {
            let v = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            w.push(format!("option.{k}={v}"));
        }
        if let Some(t) = &self.tc {
            w.push(format!("tc={t}"));
        }
        if let Some(t) = self.movetime {
            w.push(format!("movetime={t}"));
        }
        if let Some(d) = self.depth {
            w.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            w.push(format!("nodes={n}"));
        }
        if let Some(m) = self.margin {
            w.push(format!("margin={m}"));
        }
        if self.restart {
            w.push("restart=on".into());
        }
        Ok(w)
    }
}

/// Reads an engines file: a JSON array of engines (`name`, `command`, and optionally `dir`,
/// `proto`, `options`, `tc`, `movetime`, `depth`, `nodes`, `margin`, `restart`).
///
/// # Errors
/// The file cannot be read or is not such an array; two engines share a name.
pub fn load_engines_file(path: &Path) -> Result<Vec<ConfEngine>, String> {
    let bytes = crate::fsutil::read_capped(path, MAX_CONF_BYTES)?;
    let text = String::from_utf8_lossy(&bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let engines: Vec<ConfEngine> =
        serde_json::from_str(text).map_err(|e| format!("--engines-file {}: {e}", path.display()))?;
    for (i, e) in engines.iter().enumerate() {
        if engines[..i].iter().any(|o| o.name == e.name) {
            return Err(format!(
                "--engines-file {}: two engines are named {:?}",
                path.display(),
                e.name
            ));
        }
    }
    Ok(engines)
}

/// An engine's own limits, where its words give them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OwnLimits {
    /// Its time control, when any of `tc=`, `movetime=`, `depth=`, `nodes=` is given: these
    /// replace the shared limits as a whole.
    pub tc: Option<TimeControl>,
    /// Its clock margin.
    pub margin: Option<Duration>,
}

/// The words an engine setting may start with (the others are the command).
const SETTINGS: [&str; 12] = [
    "name=",
    "proto=",
    "dir=",
    "restart=",
    "option.",
    "tc=",
    "movetime=",
    "st=",
    "depth=",
    "nodes=",
    "margin=",
    "timemargin=",
];

/// Whether a word is a setting rather than part of a command.
fn is_setting(word: &str) -> bool {
    SETTINGS.iter().any(|s| word.starts_with(s))
}

/// Resolves one `--engine` value: `each` (the `--each` words), then the engine of `conf=NAME`
/// from `conf`, then the value's own words. Returns the text for the engine's spec and its own
/// limits.
///
/// # Errors
/// A `--each` word that is not a setting, an unknown `conf=` name (or no engines file), a
/// `conf=` engine with command words of its own, or a limit that does not parse.
pub fn resolve(engine: &str, each: &[String], conf: &[ConfEngine]) -> Result<(String, OwnLimits), String> {
    let own = split_words(engine)?;
    let mut words: Vec<String> = each.to_vec();
    let mut rest = Vec::new();
    let mut from_conf = false;
    for w in own {
        if let Some(name) = w.strip_prefix("conf=") {
            let c = conf.iter().find(|c| c.name == name).ok_or_else(|| {
                if conf.is_empty() {
                    format!("--engine {engine:?}: conf={name} needs --engines-file")
                } else {
                    format!("--engine {engine:?}: no engine named {name:?} in --engines-file")
                }
            })?;
            words.extend(c.words()?);
            from_conf = true;
        } else {
            rest.push(w);
        }
    }
    if from_conf && let Some(w) = rest.iter().find(|w| !is_setting(w)) {
        return Err(format!(
            "--engine {engine:?}: {w:?}: with conf=, the command comes from the engines file and \
             the other words must be settings (name=, option.NAME=VALUE, tc= ...)"
        ));
    }
    words.extend(rest);
    let mut limits = OwnLimits::default();
    let mut tc = TimeControl::default();
    let mut spec = Vec::new();
    let bad = |w: &str, e: String| format!("--engine {engine:?}: {w}: {e}");
    for w in words {
        let (key, value) = w.split_once('=').unwrap_or((&w, ""));
        match key {
            "tc" => tc.clock = Some(parse_tc(value).map_err(|e| bad(&w, e))?),
            "movetime" | "st" => {
                let t = parse_seconds("movetime", value).map_err(|e| bad(&w, e))?;
                if t.is_zero() {
                    return Err(bad(&w, "must be more than 0".into()));
                }
                tc.movetime = Some(t);
            }
            "depth" => {
                tc.depth = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&d| d > 0)
                        .ok_or_else(|| bad(&w, "a depth of 1 or more".into()))?,
                );
            }
            "nodes" => {
                tc.nodes = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| bad(&w, "a node count of 1 or more".into()))?,
                );
            }
            // `st=` and `timemargin=` as fastchess and cutechess write them.
            "margin" | "timemargin" => {
                let ms: u64 = value
                    .parse()
                    .map_err(|_| bad(&w, "milliseconds, a whole number".into()))?;
                limits.margin = Some(Duration::from_millis(ms));
            }
            _ => {
                spec.push(w);
                continue;
            }
        }
        if !key.ends_with("margin") {
            limits.tc = Some(tc);
        }
    }
    let text =
        shlex::try_join(spec.iter().map(String::as_str)).map_err(|e| format!("--engine {engine:?}: {e}"))?;
    Ok((text, limits))
}

/// Reads the `--each` value: settings only.
///
/// # Errors
/// Bad quoting, or a word that is not a setting.
pub fn each_words(each: Option<&str>) -> Result<Vec<String>, String> {
    let Some(text) = each else { return Ok(Vec::new()) };
    let words = split_words(text)?;
    if let Some(w) = words.iter().find(|w| !is_setting(w) || w.starts_with("name=")) {
        return Err(format!(
            "--each {text:?}: {w:?} is not a shared setting (proto=, dir=, restart=, option.NAME=VALUE, \
             tc=, movetime=, depth=, nodes=, margin=)"
        ));
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_words_win_over_each_and_conf() {
        let conf = vec![ConfEngine {
            name: "old".into(),
            command: "tempo hub".into(),
            dir: None,
            proto: Some("hub".into()),
            options: [("tt-size".to_string(), serde_json::json!(20))].into(),
            tc: None,
            movetime: None,
            depth: Some(4),
            nodes: None,
            margin: None,
            restart: true,
        }];
        let each = each_words(Some("tc=10+0.1 margin=80")).unwrap();
        let (text, l) = resolve("conf=old depth=6", &each, &conf).unwrap();
        assert_eq!(
            split_words(&text).unwrap(),
            [
                "tempo",
                "hub",
                "name=old",
                "proto=hub",
                "option.tt-size=20",
                "restart=on"
            ]
        );
        let tc = l.tc.unwrap();
        assert_eq!(tc.depth, Some(6));
        assert!(
            tc.clock.is_some(),
            "the shared clock stays with the engine's own depth"
        );
        assert_eq!(l.margin, Some(Duration::from_millis(80)));
        let (text, l) = resolve("'my engine' hub 'option.x=a b'", &[], &[]).unwrap();
        assert_eq!(split_words(&text).unwrap(), ["my engine", "hub", "option.x=a b"]);
        assert_eq!(l, OwnLimits::default());
        assert!(
            resolve("conf=new", &[], &conf)
                .unwrap_err()
                .contains("no engine named")
        );
        assert!(
            resolve("conf=old other", &[], &conf)
                .unwrap_err()
                .contains("must be settings")
        );
        let (_, l) = resolve("x st=0.5 timemargin=30", &[], &[]).unwrap();
        assert_eq!(l.tc.unwrap().movetime, Some(Duration::from_millis(500)));
        assert_eq!(l.margin, Some(Duration::from_millis(30)));
        assert!(resolve("x depth=0", &[], &[]).is_err());
        assert!(resolve("x movetime=0", &[], &[]).is_err());
        assert!(resolve("x tc=abc", &[], &[]).is_err());
        assert!(each_words(Some("hub")).is_err());
        assert!(each_words(Some("name=x")).is_err());
    }
}
