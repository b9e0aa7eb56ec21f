//! Build script: tells the tests whether a Python with pydraughts was named
//! (`TEMPO_PYDRAUGHTS_PYTHON`, or `TEMPO_REQUIRE_PYDRAUGHTS` to demand it), so that the tests
//! that need pydraughts are marked ignored, and reported so, when it was not: a cross-check that
//! did not run must not look like one that passed.

fn main() {
    println!("cargo::rerun-if-env-changed=TEMPO_PYDRAUGHTS_PYTHON");
    println!("cargo::rerun-if-env-changed=TEMPO_REQUIRE_PYDRAUGHTS");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rustc-check-cfg=cfg(pydraughts)");
    if std::env::var_os("TEMPO_PYDRAUGHTS_PYTHON").is_some()
        || std::env::var_os("TEMPO_REQUIRE_PYDRAUGHTS").is_some()
    {
        println!("cargo::rustc-cfg=pydraughts");
    }
}
