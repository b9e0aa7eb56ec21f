//! The eval-file option of both protocols (protocol.md 2.3 and 3.2): a weight file of the learned
//! evaluation is loaded for the current variant, refused with the reason when it is missing,
//! corrupt or for another variant, `<learned>` selects the embedded weights and `<default>` restores
//! the variant's default evaluation.

use crate::common;

use common::Engine;
use tempo::protocol::hub::parse_line;

/// A copy of the embedded International weights, and a damaged copy.
fn weight_files(tag: &str) -> (String, String, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("tempo-eval-file-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = tempo::eval::choice::embedded("international").expect("International ships weights");
    let good = dir.join("good.bin");
    std::fs::write(&good, bytes).unwrap();
    let mut damaged = bytes.to_vec();
    damaged[1000] ^= 0x40;
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, damaged).unwrap();
    (good.display().to_string(), bad.display().to_string(), dir)
}

fn hub_param(e: &mut Engine, name: &str) -> String {
    e.send("hub");
    let (_, params) = e.until("wait");
    let line = params
        .iter()
        .find(|l| l.starts_with(&format!("param name={name} ")))
        .unwrap_or_else(|| panic!("no {name} in {params:?}"));
    parse_line(line).unwrap().get("value").unwrap().to_string()
}

#[test]
fn hub_eval_file_loads_refuses_and_restores() {
    let (good, bad, dir) = weight_files("hub");
    let mut e = Engine::start(&["hub"]);
    assert_eq!(hub_param(&mut e, "eval-file"), "<default>");
    e.send(&format!("set-param name=eval-file value={good}"));
    assert_eq!(hub_param(&mut e, "eval-file"), good);
    // A search runs on the loaded weights.
    e.send("init");
    e.until("ready");
    e.send("pos start");
    e.send("level depth=3");
    e.send("go think");
    e.until("done");
    e.send(&format!("set-param name=eval-file value={bad}"));
    let (err, _) = e.until("error");
    assert!(err.contains("checksum"), "{err}");
    e.send("set-param name=eval-file value=/no/such/file.bin");
    let (err, _) = e.until("error");
    assert!(err.contains("cannot read"), "{err}");
    // The weights loaded before a refused file stay in use.
    assert_eq!(hub_param(&mut e, "eval-file"), good);
    // International weights are refused for Russian, and Turkish has no learned evaluation.
    e.send("set-param name=variant value=russian");
    e.send(&format!("set-param name=eval-file value={good}"));
    let (err, _) = e.until("error");
    assert!(err.contains("for international, not for russian"), "{err}");
    e.send("set-param name=variant value=turkish");
    e.send(&format!("set-param name=eval-file value={good}"));
    let (err, _) = e.until("error");
    assert!(err.contains("no learned evaluation"), "{err}");
    e.send("set-param name=variant value=normal");
    e.send("set-param name=eval-file value=<hand>");
    assert_eq!(hub_param(&mut e, "eval-file"), "<hand>");
    e.send("set-param name=eval-file value=<learned>");
    assert_eq!(hub_param(&mut e, "eval-file"), "<learned>");
    e.send("set-param name=variant value=italian");
    e.send("set-param name=eval-file value=<learned>");
    let (err, _) = e.until("error");
    assert!(err.contains("ships no weights"), "{err}");
    // International's network is chosen by name; Russian ships none.
    e.send("set-param name=eval-file value=<network>");
    let (err, _) = e.until("error");
    assert!(err.contains("ships no network"), "{err}");
    e.send("set-param name=variant value=normal");
    e.send("set-param name=eval-file value=<network>");
    assert_eq!(hub_param(&mut e, "eval-file"), "<network>");
    e.send("set-param name=variant value=russian");
    e.send("set-param name=eval-file value=<network>");
    let (err, _) = e.until("error");
    assert!(err.contains("ships no network"), "{err}");
    e.send("set-param name=variant value=normal");
    e.send("set-param name=eval-file value=<default>");
    assert_eq!(hub_param(&mut e, "eval-file"), "<default>");
    e.send(&format!("set-param name=eval-file value={good}"));
    e.send("set-param name=eval-file value=\"\"");
    assert_eq!(hub_param(&mut e, "eval-file"), "<default>");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn uci_evalfile_loads_refuses_and_restores() {
    let (good, bad, dir) = weight_files("uci");
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    let (_, options) = e.until("uciok");
    assert!(
        options.contains(&"option name EvalFile type string default <default>".to_string()),
        "{options:?}"
    );
    e.send(&format!("setoption name EvalFile value {good}"));
    e.send("isready");
    let (_, before) = e.until("readyok");
    assert!(before.is_empty(), "{before:?}");
    e.send("uci");
    let (_, options) = e.until("uciok");
    assert!(
        options.contains(&format!("option name EvalFile type string default {good}")),
        "{options:?}"
    );
    e.send("position startpos");
    e.send("go depth 3");
    e.until("bestmove");
    e.send(&format!("setoption name EvalFile value {bad}"));
    let (err, _) = e.until("info string error");
    assert!(err.contains("checksum"), "{err}");
    e.send("setoption name EvalFile value <default>");
    e.send("uci");
    let (_, options) = e.until("uciok");
    assert!(
        options.contains(&"option name EvalFile type string default <default>".to_string()),
        "{options:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A FIFO at `dir/name` (made with the system's `mkfifo`), or `None` where there is none.
fn fifo(dir: &std::path::Path, name: &str) -> Option<String> {
    let path = dir.join(name);
    let made = std::process::Command::new("mkfifo").arg(&path).status().ok()?;
    made.success().then(|| path.display().to_string())
}

/// Issue 53 items 3 and 6: a FIFO, /dev/zero or a directory given as the weight file is refused
/// at once with an error line, and the engine answers the next `ping` / `isready` promptly (a FIFO
/// used to block the protocol thread in `open` for good, /dev/zero to fill the memory).
#[test]
fn special_files_as_eval_file_are_refused_at_once() {
    let (_, _, dir) = weight_files("fifo");
    let Some(pipe) = fifo(&dir, "pipe") else {
        return;
    };
    let quick = std::time::Duration::from_secs(5);
    let mut e = Engine::start(&["hub"]);
    for file in [pipe.as_str(), "/dev/zero", &dir.display().to_string()] {
        e.send(&format!("set-param name=eval-file value={file}"));
        e.send("ping");
        let (_, err, _) = e.until_at(quick, |l| l.starts_with("error"));
        assert!(err.contains("not a regular file"), "{file}: {err}");
        e.until_at(quick, |l| l == "pong");
    }
    e.send("quit");
    assert_eq!(e.wait_exit(quick).0, Some(0));
    let mut e = Engine::start(&["uci"]);
    for file in [pipe.as_str(), "/dev/zero"] {
        e.send(&format!("setoption name EvalFile value {file}"));
        e.send("isready");
        let (_, err, _) = e.until_at(quick, |l| l.starts_with("info string error"));
        assert!(err.contains("not a regular file"), "{file}: {err}");
        e.until_at(quick, |l| l == "readyok");
    }
    e.send("quit");
    assert_eq!(e.wait_exit(quick).0, Some(0));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bad_tempo_net_file_is_refused_when_the_network_is_chosen() {
    // The file TEMPO_NET names is read when `<network>` is chosen, so that a bad one stops the
    // command with its reason instead of failing in the middle of a search.
    let (good, bad, dir) = weight_files("tempo-net");
    let run = |net: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tempo"))
            .args(["search", "--depth", "3", "--eval-file", "<network>"])
            .env("TEMPO_NET", net)
            .output()
            .unwrap()
    };
    for file in [good.as_str(), bad.as_str(), "/nonexistent-dir/n.nn"] {
        let o = run(file);
        assert!(
            !o.status.success(),
            "{file}: a pattern file or none is no network"
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains("TEMPO_NET") && stderr.contains(file), "{stderr}");
    }
    let net = dir.join("n.nn");
    std::fs::write(&net, tempo::eval::network::INTERNATIONAL).unwrap();
    let o = run(&net.display().to_string());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::remove_dir_all(dir).unwrap();
}

/// The network file `TEMPO_NET` names goes through the same checks as every other file: a FIFO
/// or a device is refused at once with an error (a plain read blocked the protocol thread for
/// good on a FIFO: no `pong`, `quit` ignored; /dev/zero was read until the memory ran out), and a
/// file longer than the largest network the engine loads is refused before it is read (a 1 GiB
/// sparse file was read whole). The engine keeps answering, in Hub, in UCI and on the command line.
#[test]
fn special_and_oversized_network_files_are_refused_at_once() {
    let (_, _, dir) = weight_files("net-fifo");
    let Some(pipe) = fifo(&dir, "pipe") else {
        return;
    };
    let big = dir.join("big.nn");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(1 << 30).unwrap();
    drop(f);
    let big = big.display().to_string();
    let quick = std::time::Duration::from_secs(5);
    for (net, why) in [
        (pipe.as_str(), "FIFO"),
        ("/dev/zero", "device"),
        (big.as_str(), "larger than"),
    ] {
        let mut e = Engine::start_with_env(&["hub"], &[("TEMPO_NET", net)]);
        e.send("hub");
        e.send("set-param name=eval-file value=<network>");
        e.send("ping");
        let (_, err, _) = e.until_at(quick, |l| l.starts_with("error"));
        assert!(err.contains("TEMPO_NET") && err.contains(why), "{net}: {err}");
        e.until_at(quick, |l| l == "pong");
        e.send("quit");
        assert_eq!(e.wait_exit(quick).0, Some(0), "{net}");

        let mut e = Engine::start_with_env(&["uci"], &[("TEMPO_NET", net)]);
        e.send("setoption name EvalFile value <network>");
        e.send("isready");
        let (_, err, _) = e.until_at(quick, |l| l.starts_with("info string error"));
        assert!(err.contains(why), "{net}: {err}");
        e.until_at(quick, |l| l == "readyok");
        e.send("quit");
        assert_eq!(e.wait_exit(quick).0, Some(0), "{net}");

        let mut e = Engine::start_with_env(
            &["search", "--depth", "2", "--eval-file", "<network>"],
            &[("TEMPO_NET", net)],
        );
        let (code, took) = e.wait_exit(quick);
        assert!(
            code.is_some_and(|c| c != 0),
            "{net}: exit {code:?} after {took:?}"
        );
        assert!(e.stderr().contains(why), "{net}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
