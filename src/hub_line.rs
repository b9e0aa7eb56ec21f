//! The Hub protocol's text, for both ends of a pipe (Tempo's own `tempo hub` and the engine client
//! of `tempo match` and `tempo selfplay`): a line's command and arguments, a value quoted as Hub
//! writes it, and the names Scan gives the variants.

use crate::variant::Variant;

/// One Hub line: a command and its arguments, `name=value` or bare flags (value `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubLine {
    /// The command word.
    pub command: String,
    /// The arguments in order.
    pub args: Vec<(String, Option<String>)>,
}

impl HubLine {
    /// The value of argument `name` (`Some("")` for a flag).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    /// Whether flag (or argument) `name` is present.
    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(n, _)| n == name)
    }
}

fn is_id_char(c: char) -> bool {
    !c.is_control() && !c.is_whitespace() && c != '=' && c != '"'
}

/// A character named in an error message (a `"` would not survive Hub's quoting).
fn describe(c: char) -> String {
    if c == '"' {
        "a quote mark".to_string()
    } else {
        format!("{c:?}")
    }
}

/// Reads a Hub line by Scan's rules: `command (name[=value])*`, spaces allowed around `=`, values
/// bare or in double quotes (no escapes).
///
/// # Errors
/// No command, an unterminated quote, a `=` with no name or no value, or a stray character.
pub fn parse_line(line: &str) -> Result<HubLine, String> {
    let mut chars = line.char_indices().peekable();
    let skip_ws = |chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>| {
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
    };
    let word = |chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>| {
        let mut w = String::new();
        while let Some((_, c)) = chars.next_if(|&(_, c)| is_id_char(c)) {
            w.push(c);
        }
        w
    };
    skip_ws(&mut chars);
    let command = word(&mut chars);
    if command.is_empty() {
        return Err(match chars.peek() {
            None => "missing command".to_string(),
            Some(&(_, c)) => format!("a command cannot start with {}", describe(c)),
        });
    }
    let mut args = Vec::new();
    loop {
        skip_ws(&mut chars);
        let Some(&(at, c)) = chars.peek() else { break };
        if !is_id_char(c) {
            return Err(format!("{} is unexpected at column {}", describe(c), at + 1));
        }
        let name = word(&mut chars);
        skip_ws(&mut chars);
        if chars.next_if(|&(_, c)| c == '=').is_none() {
            args.push((name, None));
            continue;
        }
        skip_ws(&mut chars);
        let value = match chars.peek() {
            Some(&(_, '"')) => {
                chars.next();
                let mut v = String::new();
                loop {
                    match chars.next() {
                        Some((_, '"')) => break,
                        Some((_, c)) => v.push(c),
                        None => return Err(format!("unterminated quote in the value of {name}")),
                    }
                }
                v
            }
            _ => {
                let v = word(&mut chars);
                if v.is_empty() {
                    return Err(format!("missing value after {name}="));
                }
                v
            }
        };
        args.push((name, Some(value)));
    }
    Ok(HubLine { command, args })
}

/// A value as Hub writes it: bare when it is a plain word, else in quotes (a `"` inside, which Hub
/// cannot carry, becomes `'`).
pub fn quote(value: &str) -> String {
    if !value.is_empty() && value.chars().all(is_id_char) {
        value.to_string()
    } else {
        format!("\"{}\"", value.replace('"', "'"))
    }
}

/// The names Scan gives the variants it plays; Tempo's own name for the others.
pub fn hub_name(v: Variant) -> &'static str {
    match v {
        Variant::International => "normal",
        Variant::Breakthrough => "bt",
        Variant::Antidraughts => "losing",
        _ => v.name(),
    }
}
