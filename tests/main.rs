//! Every integration test in one crate, so that they compile and link once (one binary instead of
//! one per file). Run one file's tests with `cargo test --test integration <file>::`. The latency
//! test stays a binary of its own (`tests/latency.rs`), so that no other test's search competes
//! with the engine it times.

mod common;
mod fuzz_checks;
mod reference;

mod analyze;
mod analyze_files;
mod book;
mod cross_check;
mod docs;
mod dxp;
mod egdb;
mod egdb_default;
mod eval_file;
mod faults;
mod fuzz_regressions;
mod games;
mod hostile;
mod hub;
mod r#match;
mod match_records;
mod match_stats;
mod muchado;
mod notation;
mod perft;
mod properties;
mod pydraughts;
mod reference_selftest;
mod robust;
mod rules;
mod search;
mod selfplay;
mod show;
mod sixteen;
mod soak;
mod strength;
mod thai_question;
mod thread_failure;
mod train;
mod uci;
