//! The documents stay true (issue 54): every relative link in the repository's Markdown files
//! resolves to a file, and an `#anchor` to one of its headings; every replayable example exchange
//! of protocol.md (its fenced `text` blocks, in the convention its introduction states) is played
//! against the binary line by line.

use crate::common::Engine;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every Markdown file of the repository, outside build output and dependencies.
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                if !name.starts_with('.') && name != "target" && name != "node_modules" {
                    walk(&p, out);
                }
            } else if name.ends_with(".md") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(root(), &mut out);
    out.sort();
    out
}

/// The lines of a Markdown text outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// The targets of inline links `[text](target)` and reference definitions `[x]: target` in a line
/// (inline code spans are skipped).
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    // Drop inline code: `[a](b)` inside backquotes is an example, not a link.
    let mut plain = String::new();
    for (i, part) in line.split('`').enumerate() {
        if i % 2 == 0 {
            plain.push_str(part);
        }
    }
    let bytes = plain.as_bytes();
    let mut i = 0;
    while let Some(k) = plain[i..].find("](") {
        let start = i + k + 2;
        let mut depth = 1;
        let mut end = start;
        while end < bytes.len() {
            match bytes[end] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            end += 1;
        }
        let target = plain[start..end].split_whitespace().next().unwrap_or("");
        out.push(target.trim_matches(|c| c == '<' || c == '>').to_string());
        i = end.min(bytes.len());
    }
    // A reference definition: `[label]: target` indented at most three spaces, the target
    // alone or followed by a title in quotes or brackets.
    let indent = plain.len() - plain.trim_start().len();
    let t = plain.trim_start();
    if indent <= 3
        && t.starts_with('[')
        && let Some((label, rest)) = t.split_once("]:")
        && !label.contains(']')
    {
        let mut words = rest.split_whitespace();
        if let Some(target) = words.next()
            && words
                .next()
                .is_none_or(|w| w.starts_with('"') || w.starts_with('\'') || w.starts_with('('))
        {
            out.push(target.to_string());
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, punctuation other than `-` and `_` dropped, spaces as
/// hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings, numbered as GitHub numbers repeats (`x`, `x-1`, ...).
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in prose(text) {
        let t = line.trim_start();
        if !t.starts_with('#') {
            continue;
        }
        let heading = t.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        // Inline code and emphasis marks vanish from the anchor.
        let clean: String = heading.chars().filter(|&c| c != '`' && c != '*').collect();
        let base = slug(&clean);
        let mut a = base.clone();
        let mut n = 0;
        while out.contains(&a) {
            n += 1;
            a = format!("{base}-{n}");
        }
        out.push(a);
    }
    out
}

#[test]
fn every_relative_link_in_the_markdown_files_resolves() {
    let files = markdown_files();
    assert!(files.len() >= 10, "found only {files:?}");
    let mut bad = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let dir = file.parent().unwrap();
        for (n, line) in prose(&text).into_iter().enumerate() {
            for target in link_targets(line) {
                if target.is_empty()
                    || target.contains("://")
                    || target.starts_with("mailto:")
                    || target.starts_with("tel:")
                {
                    continue;
                }
                let (path, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target.as_str(), None),
                };
                let dest = if path.is_empty() {
                    file.clone()
                } else {
                    dir.join(path)
                };
                let shown = file.strip_prefix(root()).unwrap_or(file).display().to_string();
                if !dest.exists() {
                    bad.push(format!("{shown} (prose line {}): {target}: no such file", n + 1));
                    continue;
                }
                if let Some(a) = anchor
                    && dest.extension().is_some_and(|e| e == "md")
                {
                    let heads = anchors(&std::fs::read_to_string(&dest).unwrap());
                    if !heads.iter().any(|h| h == a) {
                        bad.push(format!(
                            "{shown} (prose line {}): {target}: no heading #{a}",
                            n + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

#[test]
fn the_link_checker_sees_what_it_should() {
    assert_eq!(
        link_targets("see [a](docs/x.md#y) and [b](<c d.md>)"),
        ["docs/x.md#y", "c"]
    );
    assert!(link_targets("code `[a](b)` only").is_empty());
    assert_eq!(link_targets("[ref]: docs/a.md \"title\""), ["docs/a.md"]);
    assert!(link_targets("   [`X`, dirs `w e`]: A holds any piece").is_empty());
    assert_eq!(slug("2.9 Example session"), "29-example-session");
    assert_eq!(anchors("# A\n## A\n```\n# not\n```\n"), ["a", "a-1"]);
}

/// One step of a replayable example: a line to send, a line to expect, or a gap.
#[derive(Debug)]
enum Step {
    Send(String),
    /// The engine's next line equals it, or starts with it when `prefix`.
    Expect {
        text: String,
        prefix: bool,
    },
    /// Any lines until the next expected one.
    Gap,
}

/// The replayable blocks of protocol.md (fenced with the info string `text`), with the line
/// number each starts at.
fn protocol_examples() -> Vec<(usize, Vec<Step>)> {
    let text = std::fs::read_to_string(root().join("protocol.md")).unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<(usize, Vec<Step>)> = None;
    let mut other_fence = false;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_end();
        if let Some((_, steps)) = &mut current {
            if t.trim_start().starts_with("```") {
                blocks.push(current.take().unwrap());
                continue;
            }
            if t == "..." {
                steps.push(Step::Gap);
            } else if t == ">" || t.starts_with("> ") {
                steps.push(Step::Send(t.get(2..).unwrap_or("").to_string()));
            } else if let Some(y) = t.strip_prefix("< ") {
                match y.strip_suffix(" ...") {
                    Some(p) => steps.push(Step::Expect {
                        text: p.to_string(),
                        prefix: true,
                    }),
                    None => steps.push(Step::Expect {
                        text: y.to_string(),
                        prefix: false,
                    }),
                }
            } else {
                panic!("protocol.md line {}: not a replayable line: {t:?}", n + 1);
            }
        } else if t.trim_start().starts_with("```") {
            if other_fence {
                other_fence = false;
            } else if t.trim() == "```text" {
                current = Some((n + 1, Vec::new()));
            } else {
                other_fence = true;
            }
        }
    }
    blocks
}

#[test]
fn protocol_md_examples_replay_against_the_binary() {
    let blocks = protocol_examples();
    assert!(blocks.len() >= 5, "only {} replayable blocks", blocks.len());
    let wait = Duration::from_secs(30);
    for (at, steps) in blocks {
        let mut e = Engine::start(&[]);
        let mut gap = false;
        for step in &steps {
            match step {
                Step::Send(line) => {
                    e.send(line);
                }
                Step::Gap => gap = true,
                Step::Expect { text, prefix } => {
                    let matches = |l: &str| {
                        if *prefix {
                            l.starts_with(text.as_str())
                        } else {
                            l == text
                        }
                    };
                    if gap {
                        e.until_at(wait, matches);
                        gap = false;
                    } else {
                        let got = e.next_within(wait).map(|(_, l)| l);
                        assert!(
                            got.as_deref().is_some_and(matches),
                            "protocol.md block at line {at}: expected {}{text:?}, got {got:?}\nlog: {:?}",
                            if *prefix { "a line starting with " } else { "" },
                            e.log
                        );
                    }
                }
            }
        }
        e.close_stdin();
        e.wait_exit(Duration::from_secs(30));
    }
}
