//! Black-box tests of `tempo train`'s files and settings: an output that is one of its inputs, an
//! output that cannot be written, inputs without end, and settings that make no sense. Fits are
//! tiny (a few English self-play games, two L-BFGS iterations).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tempo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("the tempo binary runs")
}

/// A fresh directory for one test.
fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tempo-train-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// A small English self-play file in `dir`.
fn data(dir: &Path) -> PathBuf {
    let path = dir.join("games.txt");
    let o = tempo(&[
        "selfplay",
        "-v",
        "english",
        "--games",
        "6",
        "--depth",
        "1",
        "--quiet",
        "--out",
        &s(&path),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    path
}

/// `tempo train -v english --iterations 2 ARGS`: its exit success and standard error.
fn train(args: &[&str]) -> (bool, String) {
    let mut all = vec!["train", "-v", "english", "--iterations", "2"];
    all.extend_from_slice(args);
    let o = tempo(&all);
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Issue 53 item 1: an --out that is one of the inputs (the data, the starting weights, weights
/// compared), by name or through a hard link, is refused before anything is written, and the
/// input is left as it was.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = temp_dir("same");
    let games = data(&dir);
    let before = std::fs::read(&games).unwrap();
    let (ok, err) = train(&["--data", &s(&games), "--out", &s(&games)]);
    assert!(
        !ok && err.contains("--out and --data name the same file"),
        "{err}"
    );
    let link = dir.join("link.txt");
    std::fs::hard_link(&games, &link).unwrap();
    let (ok, err) = train(&["--data", &s(&games), "--out", &s(&link)]);
    assert!(!ok && err.contains("same file"), "{err}");
    assert_eq!(std::fs::read(&games).unwrap(), before, "the data was changed");
    // A good fit, then the weights as --init and --compare of a run that would overwrite them.
    let w = dir.join("w.bin");
    let (ok, err) = train(&["--data", &s(&games), "--out", &s(&w)]);
    assert!(ok, "{err}");
    let weights = std::fs::read(&w).unwrap();
    for opt in ["--init", "--compare"] {
        let (ok, err) = train(&["--data", &s(&games), opt, &s(&w), "--out", &s(&w)]);
        assert!(
            !ok && err.contains(opt) && err.contains("same file"),
            "{opt}: {err}"
        );
    }
    assert_eq!(std::fs::read(&w).unwrap(), weights);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 53 item 2: an --out that cannot be written (no such directory, a directory, a device) is
/// refused before the data is read or the fit run; a good output replaces the old weights whole
/// and leaves no temporary file beside them.
#[test]
fn an_unwritable_output_is_refused_before_the_fit() {
    let dir = temp_dir("unwritable");
    let games = data(&dir);
    for out in ["/nonexistent/w.bin", &s(&dir), "/dev/full"] {
        let (ok, err) = train(&["--data", &s(&games), "--out", out]);
        assert!(!ok, "{out}: {err}");
        assert!(
            err.contains("--out") && err.contains("cannot write"),
            "{out}: {err}"
        );
        assert!(!err.contains("read "), "{out}: the data was read first: {err}");
    }
    let w = dir.join("w.bin");
    std::fs::write(&w, "old weights").unwrap();
    let (ok, err) = train(&["--data", &s(&games), "--out", &s(&w)]);
    assert!(ok, "{err}");
    assert!(std::fs::read(&w).unwrap().len() > 1000);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 53 item 2: with the disk full for the process (a file size limit below the weights),
/// the old weights stay whole. Needs a shell with `ulimit`; skipped where there is none.
#[cfg(unix)]
#[test]
fn a_full_disk_leaves_the_old_weights() {
    let dir = temp_dir("full");
    let games = data(&dir);
    let w = dir.join("w.bin");
    let (ok, err) = train(&["--data", &s(&games), "--out", &s(&w)]);
    assert!(ok, "{err}");
    let before = std::fs::read(&w).unwrap();
    assert!(before.len() > 20 * 1024, "{}", before.len());
    // 20 blocks of 1 KiB (ulimit -f counts 1024-byte blocks in bash, 512 in some shells: either
    // is below the weights' size).
    let script = format!(
        "ulimit -f 20 && trap '' XFSZ && exec {} train -v english --iterations 2 --data {} --out {}",
        env!("CARGO_BIN_EXE_tempo"),
        s(&games),
        s(&w)
    );
    let Ok(o) = Command::new("sh").args(["-c", &script]).output() else {
        return;
    };
    assert!(!o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&w).unwrap(), before, "the old weights were damaged");
    let names = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(names, 2, "a temporary file was left");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 53 item 6: inputs without end (/dev/zero as data, starting weights or compared weights)
/// are refused with a message, not read until the memory runs out.
#[test]
fn inputs_without_end_are_refused() {
    let dir = temp_dir("zero");
    let games = data(&dir);
    let out = s(&dir.join("w.bin"));
    for args in [
        vec!["--data", "/dev/zero", "--out", &out],
        vec![
            "--data",
            &games.to_string_lossy(),
            "--init",
            "/dev/zero",
            "--out",
            &out,
        ],
        vec!["--data", &games.to_string_lossy(), "--compare", "/dev/zero"],
    ] {
        let (ok, err) = train(&args);
        assert!(!ok, "{args:?}");
        assert!(
            err.contains("/dev/zero") && err.contains("not a regular file"),
            "{args:?}: {err}"
        );
    }
    // A regular file with a line without end.
    let long = dir.join("long.txt");
    std::fs::write(&long, vec![b'x'; 200 << 10]).unwrap();
    let (ok, err) = train(&["--data", &s(&long), "--out", &out]);
    assert!(
        !ok && err.contains("line 1") && err.contains("longer than"),
        "{err}"
    );
    // A weight file larger than any weight file.
    let big = dir.join("big.bin");
    std::fs::File::create(&big).unwrap().set_len(65 << 20).unwrap();
    let (ok, err) = train(&["--data", &s(&games), "--compare", &s(&big)]);
    assert!(!ok && err.contains("larger than 64 MiB"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 53 item 8: every numeric setting is checked (NaN, infinities, negative penalties, empty
/// batches and budgets are refused, naming the option), and a fit whose loss is not finite writes
/// nothing.
#[test]
fn nonsense_settings_are_refused() {
    let dir = temp_dir("settings");
    let games = data(&dir);
    let out = dir.join("w.bin");
    for (opt, value) in [
        ("--lr", "NaN"),
        ("--lr", "0"),
        ("--l2", "NaN"),
        ("--l2", "-1"),
        ("--ridge", "NaN"),
        ("--ridge", "-1"),
        ("--k", "inf"),
        ("--k", "0"),
        ("--lambda", "NaN"),
        ("--holdout", "1"),
        ("--max-positions", "0"),
        ("--batch", "0"),
        ("--epochs", "0"),
        ("--iterations", "0"),
    ] {
        // One word, so that a value such as -1 is not taken for an option.
        let (ok, err) = train(&["--data", &s(&games), "--out", &s(&out), &format!("{opt}={value}")]);
        assert!(!ok, "{opt} {value} accepted");
        assert!(err.contains(opt), "{opt} {value}: {err}");
        assert!(!out.exists(), "{opt} {value}: weights written");
    }
    // A step size that overflows: the loss becomes NaN, and nothing is written.
    let (ok, err) = train(&[
        "--data",
        &s(&games),
        "--out",
        &s(&out),
        "--optimizer",
        "adam",
        "--epochs",
        "2",
        "--lr",
        "1e300",
    ]);
    assert!(!ok && err.contains("nothing written"), "{err}");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 53 item 1: only the output is checked against the inputs: the starting weights may also
/// be compared, and a file of data given twice is read twice, as before.
#[test]
fn inputs_may_share_a_file() {
    let dir = temp_dir("shared");
    let games = data(&dir);
    let w = dir.join("w.bin");
    let (ok, err) = train(&["--data", &s(&games), "--out", &s(&w)]);
    assert!(ok, "{err}");
    let (ok, err) = train(&[
        "--data",
        &s(&games),
        &s(&games),
        "--init",
        &s(&w),
        "--compare",
        &s(&w),
        "--out",
        &s(&dir.join("w2.bin")),
    ]);
    assert!(ok, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tempo train --network` writes only a network the engine loads: a step size that makes the
/// loss NaN, a scale that a file stores as 0 or infinity, and a variant the engine has no network
/// for are refused with "nothing written" (the first after the fit, the others before it), and a
/// good network file already at `--out` is left as it was. (A NaN loss used to write the file,
/// exit 0.)
#[test]
fn a_network_fit_writes_only_loadable_networks() {
    let dir = temp_dir("network");
    let games = dir.join("international.txt");
    let o = tempo(&[
        "selfplay",
        "-v",
        "international",
        "--games",
        "4",
        "--depth",
        "1",
        "--quiet",
        "--out",
        &s(&games),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.join("good.nn");
    let (games_arg, out_arg) = (s(&games), s(&out));
    let fit = |extra: &[&str]| {
        let mut all = vec![
            "train",
            "--network",
            "32x8",
            "--epochs",
            "1",
            "--data",
            &games_arg,
            "--out",
            &out_arg,
        ];
        all.extend_from_slice(extra);
        if !extra.contains(&"-v") {
            all.extend_from_slice(&["-v", "international"]);
        }
        let o = tempo(&all);
        (
            o.status.success(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (ok, err) = fit(&[]);
    assert!(ok, "{err}");
    let good = std::fs::read(&out).unwrap();
    assert!(tempo::eval::network::Network::decode(&good).is_ok());
    for (extra, why) in [
        (&["--lr", "1e300"][..], "nothing written"),
        (&["--k", "1e-300"][..], "--k"),
        (&["--k", "1e300"][..], "--k"),
        (&["-v", "russian"][..], "--network"),
    ] {
        let (ok, err) = fit(extra);
        assert!(!ok, "{extra:?} accepted: {err}");
        assert!(err.contains(why), "{extra:?}: {err}");
        assert!(!err.contains("wrote"), "{extra:?}: {err}");
        assert_eq!(
            std::fs::read(&out).unwrap(),
            good,
            "{extra:?}: the good file was replaced"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
