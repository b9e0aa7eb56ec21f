//! `tempo train`: fits the learned evaluation (the weights of [`crate::eval::table`] over the
//! features of [`crate::eval::features`]) to self-play data ([`crate::selfplay::format`]) and
//! writes a weight file ([`crate::eval::weights`]).
//!
//! Each position is reduced once to its features (region configurations, linear terms, phase)
//! in flat arrays, about 100 bytes a position on 10x10, so millions fit in memory. The model is the
//! evaluation itself in floating point: `e = sum of weights`, blended by phase, in hundredths of a
//! man for the side to move. It is fitted by minimising the logistic loss (cross-entropy) of
//! `sigmoid(e / K)` against the target `λ·result + (1 − λ)·sigmoid(score / K)`, where `result` is the
//! game's result for the side to move and `score` the search score of the recorded position, plus
//! a penalty on the weights: by default with full-batch L-BFGS and a ridge ([`fit_lbfgs`]), or
//! with Adam steps over shuffled minibatches and an L2 penalty ([`fit`]; weights fitted so lost to
//! the hand evaluation in games, so it is no longer the default). `K` is fitted first so that
//! `sigmoid(score / K)` best predicts the results (or given with `--k`); it is stored in the file.
//! Positions are split into training and held-out sets by game (a hash of the seed, the file and the
//! game number), so positions of one game never land on both sides.
//!
//! One thread does it: a pass over two million positions takes about a quarter of a second, and
//! 200 L-BFGS iterations about a minute, so threads would not pay for their complexity.
//!
//! The code is in rooms: `args` holds the command's arguments and their parsers, `data` reads the
//! self-play files into [`Samples`], `optim` holds the loss and the optimisers; this module ties
//! them together in [`run`].

mod args;
mod data;
pub mod network;
mod optim;

pub use args::{MAX_BATCH, MAX_ROUNDS, Optimizer, TrainArgs};
pub use data::{Samples, load, load_into, load_of, read_games};
pub use optim::{Epoch, Options, fit, fit_k, fit_k_of, fit_lbfgs, fit_lbfgs_used, hand_loss, net_loss};

use crate::draughts::geom::Geometry;
use crate::draughts::rules::{self, Rules};
use crate::eval::choice;
use crate::eval::features::{self, Regions};
use crate::eval::table::{Net, SHIFT};
use crate::eval::weights;
use crate::variant::Variant;
use std::time::Instant;

/// The weights of file `path`, for samples `s` (read with edge patterns exactly when the file
/// has them).
fn read_net<R: Rules>(path: &std::path::Path, s: &Samples) -> Result<Net, String> {
    let bytes = crate::fsutil::read_capped(path, weights::MAX_FILE_BYTES)?;
    let net = weights::decode_for::<R>(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    // A net without big windows scores as before with windows of zero weight: the start of a
    // fit that learns them, or a comparison on data read with them.
    let net = net.with_windows(s.windows).with_kings(s.kings);
    if net.windows > 0 && !s.windows {
        return Err(format!(
            "{}: weights with big windows, data read without them (add --windows)",
            path.display()
        ));
    }
    if (net.kings > 0 || net.linear[features::KING_ATTACKED] != [0, 0]) && !s.kings {
        return Err(format!(
            "{}: weights with king terms, data read without them (add --kings)",
            path.display()
        ));
    }
    if net.slots() != s.slots {
        let with = |edges: bool| if edges { "with" } else { "without" };
        return Err(format!(
            "{}: weights {} edge patterns, data read {} them ({} --edges)",
            path.display(),
            with(net.edges > 0),
            with(s.edges),
            if s.edges { "leave out" } else { "add" }
        ));
    }
    Ok(net)
}

/// The losses of the weight file `path` over `train` and `held`, and over `held` against the
/// results alone: the figures `tempo train` prints for its own fit, for weights made elsewhere.
///
/// # Errors
/// An unreadable file, weights of another variant or board, or edge patterns where the samples
/// have none (or the reverse).
pub fn compare_file<R: Rules>(
    path: &std::path::Path,
    train: &Samples,
    held: &Samples,
    o: &Options,
) -> Result<(f64, f64, f64), String> {
    let net = read_net::<R>(path, train)?;
    let results = Options { lambda: 1.0, ..*o };
    Ok((
        net_loss(&net, train, o),
        net_loss(&net, held, o),
        net_loss(&net, held, &results),
    ))
}

/// Runs `tempo train`.
///
/// # Errors
/// A variant without learned evaluation, bad settings, unreadable data or output.
pub fn run(args: &TrainArgs) -> Result<(), String> {
    use rules::*;
    match args.variant {
        Variant::International => run_for::<InternationalRules>(args),
        Variant::Russian => run_for::<RussianRules>(args),
        Variant::Brazilian => run_for::<BrazilianRules>(args),
        Variant::English => run_for::<EnglishRules>(args),
        Variant::Frisian => run_for::<FrisianRules>(args),
        Variant::Frysk => run_for::<FryskRules>(args),
        Variant::Italian => run_for::<ItalianRules>(args),
        Variant::Spanish => run_for::<SpanishRules>(args),
        Variant::Portuguese => run_for::<PortugueseRules>(args),
        Variant::Czech => run_for::<CzechRules>(args),
        Variant::Pool => run_for::<PoolRules>(args),
        Variant::Thai => run_for::<ThaiRules>(args),
        Variant::Canadian => run_for::<CanadianRules>(args),
        Variant::Killer => run_for::<KillerRules>(args),
        Variant::Breakthrough => run_for::<BreakthroughRules>(args),
        v => Err(format!(
            "{} has no learned evaluation: only square-board variants with dark squares and a \
             normal goal have one",
            v.name()
        )),
    }
}

/// Whether the engine can load `l` as it loads a network file: its bytes decode, with finite
/// weights and scale, into a shape the engine evaluates with.
fn loadable(l: &crate::eval::network::Layers) -> Result<(), String> {
    crate::eval::network::Network::decode(&l.encode()).map(drop)
}

/// Refuses a scale `--k` (or a fitted one) that a network file cannot store: the file holds it
/// as an f32, and the engine loads only a finite one above zero (1e-300 became 0, 1e300 infinity).
fn check_scale(k: f64) -> Result<(), String> {
    let stored = k as f32;
    if stored.is_normal() && stored > 0.0 {
        Ok(())
    } else {
        Err(format!(
            "K = {k} becomes {stored} in a network file, which the engine does not load"
        ))
    }
}

/// `tempo train --network`: reads the data as network inputs, fits, writes the network file.
fn run_network<R: Rules>(args: &TrainArgs, (h1, h2): (usize, usize)) -> Result<(), String> {
    if !args.compare.is_empty() {
        return Err("--compare reads pattern weights: leave it out with --network".into());
    }
    // Only a network the engine can load is worth the fit: the variant and shape are checked
    // before the data is read, the scale as soon as it is known.
    if R::NAME != choice::NETWORK_VARIANT {
        return Err(format!(
            "--network: the engine evaluates with a network only in {} (eval-file <network>); \
             a {} network could not be loaded",
            choice::NETWORK_VARIANT,
            R::NAME
        ));
    }
    let inputs = 4 * <R::Board as Geometry>::SQUARES;
    loadable(&crate::eval::network::Layers::zeros(inputs, h1, h2, 1.0))
        .map_err(|e| format!("--network: {e}"))?;
    if let Some(k) = args.k {
        check_scale(k).map_err(|e| format!("--k: {e}"))?;
    }
    let clock = Instant::now();
    let (train, held) = network::load::<R>(&args.data, args.holdout, args.seed, args.max_positions)?;
    if train.is_empty() {
        return Err("no finished game in the data".into());
    }
    crate::stderr_line!(
        "read {} training and {} held-out positions ({} inputs) in {:.1} s",
        train.len(),
        held.len(),
        train.inputs,
        clock.elapsed().as_secs_f64()
    );
    let k = match args.k {
        Some(k) => k,
        None => {
            let k = fit_k_of(&train.score, &train.result);
            crate::stderr_line!("fitted K = {k:.1}");
            check_scale(k).map_err(|e| format!("fitted {e}; give --k"))?;
            k
        }
    };
    let o = network::NetOptions {
        lambda: args.lambda,
        k,
        epochs: args.epochs,
        lr: args.lr.unwrap_or(1e-3),
        batch: args.batch,
        seed: args.seed,
        threads: args.threads as usize,
    };
    let start = match &args.init {
        Some(path) => {
            let bytes = crate::fsutil::read_capped(path, 64 << 20)?;
            let l = crate::eval::network::Layers::decode(&bytes)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if (l.inputs, l.h1, l.h2) != (train.inputs, h1, h2) {
                return Err(format!(
                    "{}: a {}x{}x{} network, not {}x{h1}x{h2}",
                    path.display(),
                    l.inputs,
                    l.h1,
                    l.h2,
                    train.inputs
                ));
            }
            crate::eval::network::Layers { k: k as f32, ..l }
        }
        None => network::initial(train.inputs, h1, h2, k as f32, args.seed),
    };
    let search_loss = {
        let n = held.len().max(1) as f64;
        held.score
            .iter()
            .zip(&held.result)
            .map(|(&s, &r)| optim::cross_entropy(optim::sigmoid(f64::from(s) / k), f64::from(r)))
            .sum::<f64>()
            / n
    };
    crate::stderr_line!(
        "start: held-out loss {:.5} (the search scores' own: {search_loss:.5})",
        network::loss(&start, &held, &o).0
    );
    let fitted = network::fit(start, &train, &held, &o, |e| {
        crate::stderr_line!(
            "epoch {:>3}/{}  held-out loss {:.5}  ({:.1} s)",
            e.epoch,
            o.epochs,
            e.held_loss,
            e.seconds
        );
    });
    // A step size that made the loss NaN leaves NaN weights: such a network must not replace a
    // file the engine may load (the pattern fit refuses the same).
    let held_loss = network::loss(&fitted, &held, &o).0;
    if !held.is_empty() && !held_loss.is_finite() {
        return Err(format!(
            "the fit diverged (held-out loss {held_loss}): nothing written; try a smaller --lr"
        ));
    }
    loadable(&fitted).map_err(|e| format!("the fitted network cannot be loaded ({e}): nothing written"))?;
    let Some(out) = &args.out else {
        return Ok(());
    };
    crate::fsutil::write_atomic(out, &fitted.encode())?;
    crate::stderr_line!("wrote {}", out.display());
    Ok(())
}

fn run_for<R: Rules>(args: &TrainArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {} is not between 0 and 1", args.lambda));
    }
    if !(0.0..1.0).contains(&args.holdout) {
        return Err(format!("--holdout {} is not in [0, 1)", args.holdout));
    }
    if let Some(out) = &args.out {
        // The output replaces its file only after the fit: one of the inputs under another name
        // would be destroyed, and an output that cannot be written would be found only then.
        // Inputs may share a file among themselves (the start also compared); only the output
        // must be none of them.
        let inputs = (args.data.iter().map(|p| ("--data", p)))
            .chain(args.init.iter().map(|p| ("--init", p)))
            .chain(args.compare.iter().map(|p| ("--compare", p)));
        for (option, input) in inputs {
            crate::fsutil::check_distinct(&[("--out", out), (option, input)])?;
        }
        crate::fsutil::check_writable(out).map_err(|e| format!("--out: {e}"))?;
    }
    if let Some(shape) = args.network {
        return run_network::<R>(args, shape);
    }
    let clock = Instant::now();
    let read = Samples {
        edges: args.edges,
        windows: args.windows,
        kings: args.kings,
        ..Samples::default()
    };
    let (train, held) = load_into::<R>(&args.data, args.holdout, args.seed, args.max_positions, &read)?;
    if train.is_empty() {
        return Err("no finished game in the data".into());
    }
    crate::stderr_line!(
        "read {} training and {} held-out positions ({} regions{}{}{} each) in {:.1} s",
        train.len(),
        held.len(),
        Regions::of::<R::Board>().count,
        if args.edges { ", 4 edge patterns" } else { "" },
        if args.windows { ", big windows" } else { "" },
        if args.kings { ", king terms" } else { "" },
        clock.elapsed().as_secs_f64()
    );
    let k = match args.k {
        Some(k) if k > 0.0 => k,
        Some(k) => return Err(format!("--k {k} must be positive")),
        None => {
            let k = fit_k(&train);
            crate::stderr_line!("fitted K = {k:.1}");
            k
        }
    };
    let o = Options {
        lambda: args.lambda,
        k,
        epochs: args.epochs,
        l2: args.l2,
        lr: args.lr.unwrap_or(2.0),
        batch: args.batch,
        seed: args.seed,
        min_count: args.min_count,
    };
    let (start, anchored) = match &args.init {
        Some(path) => (read_net::<R>(path, &train)?, true),
        None => (
            Net::initial_of::<R>(args.edges, args.windows).with_kings(args.kings),
            false,
        ),
    };
    crate::stderr_line!(
        "hand-set evaluation: train loss {:.5}  held-out loss {:.5}",
        hand_loss(&train, &o),
        hand_loss(&held, &o)
    );
    for path in &args.compare {
        let (t, h, r) = compare_file::<R>(path, &train, &held, &o)?;
        crate::stderr_line!(
            "{}: train loss {t:.5}  held-out loss {h:.5}  held-out loss against the results alone {r:.5}",
            path.display()
        );
    }
    let Some(out) = &args.out else {
        return Ok(());
    };
    crate::stderr_line!(
        "start: train loss {:.5}  held-out loss {:.5}",
        net_loss(&start, &train, &o),
        net_loss(&start, &held, &o)
    );
    let fit_clock = Instant::now();
    // L-BFGS's progress line, the same with or without big windows.
    let iteration = |e: &Epoch| {
        crate::stderr_line!(
            "iteration {:>4}/{}  train loss {:.5}  held-out loss {:.5}  ({:.1} s)",
            e.epoch,
            args.iterations,
            e.train,
            e.held,
            fit_clock.elapsed().as_secs_f64()
        );
    };
    let (net, epochs) = match args.optimizer {
        Optimizer::Adam => fit(start, &train, &held, &o, |e| {
            crate::stderr_line!(
                "epoch {:>3}/{}  train loss {:.5}  held-out loss {:.5}  ({:.1} s)",
                e.epoch,
                o.epochs,
                e.train,
                e.held,
                fit_clock.elapsed().as_secs_f64()
            );
        }),
        // With big windows, only the weights the data uses (a fraction of their 4 million).
        Optimizer::Lbfgs if start.windows > 0 => fit_lbfgs_used(
            start,
            &train,
            &held,
            &o,
            args.iterations,
            args.ridge,
            anchored,
            iteration,
        ),
        Optimizer::Lbfgs => fit_lbfgs(
            start,
            &train,
            &held,
            &o,
            args.iterations,
            args.ridge,
            anchored,
            iteration,
        ),
    };
    // A step size or penalty that made the loss NaN leaves weights that round to nothing useful
    // (NaN becomes 0): such a net must not replace a file the engine may load.
    if let Some(e) = epochs
        .iter()
        .find(|e| !e.train.is_finite() || (!held.is_empty() && !e.held.is_finite()))
    {
        return Err(format!(
            "the fit diverged (loss {} at {} {}): nothing written; try other settings",
            if e.train.is_finite() { e.held } else { e.train },
            if args.optimizer == Optimizer::Adam {
                "epoch"
            } else {
                "iteration"
            },
            e.epoch
        ));
    }
    let (train_loss, held_loss) = (net_loss(&net, &train, &o), net_loss(&net, &held, &o));
    if !train_loss.is_finite() || (!held.is_empty() && !held_loss.is_finite()) {
        return Err(format!(
            "the fitted weights give a loss of {train_loss} (held-out {held_loss}): nothing written"
        ));
    }
    crate::stderr_line!("integer weights: train loss {train_loss:.5}  held-out loss {held_loss:.5}");
    let results = Options { lambda: 1.0, ..o };
    crate::stderr_line!(
        "held-out loss against the results alone: {:.5} (hand-set evaluation {:.5})",
        net_loss(&net, &held, &results),
        hand_loss(&held, &results)
    );
    let one = f64::from(1u32 << SHIFT);
    let terms: Vec<String> = features::LINEAR_NAMES
        .iter()
        .zip(&net.linear)
        .map(|(n, w)| format!("{n} {:.1}/{:.1}", f64::from(w[0]) / one, f64::from(w[1]) / one))
        .collect();
    crate::stderr_line!("linear terms (middle game/endgame): {}", terms.join(", "));
    crate::fsutil::write_atomic(out, &weights::encode(&net))?;
    crate::stderr_line!(
        "wrote {} ({} x {} board, {} regions, {} edge patterns) in {:.1} s total",
        out.display(),
        <R::Board as Geometry>::WIDTH,
        <R::Board as Geometry>::HEIGHT,
        net.regions,
        net.edges,
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::Draughts;
    use crate::draughts::rules::BrazilianRules;
    use crate::eval::Evaluate;
    use crate::eval::features::LINEAR;
    use crate::eval::hand::hand_evaluate;
    use crate::game::{Game, MoveList, Outcome, Side};
    use rand::Rng;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// A few hundred positions of random games, scored by the hand evaluation, with the games'
    /// results (or the hand evaluation's verdict when a game is cut off).
    fn tiny_data(games: u64, seed: u64) -> String {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut text = String::from("# tempo selfplay variant=brazilian test\n");
        for k in 0..games {
            let mut pos = Draughts::<BrazilianRules>::start();
            let mut lines = Vec::new();
            let mut result = None;
            for _ in 0..80 {
                if let Some(o) = pos.outcome() {
                    result = Some(o);
                    break;
                }
                let mut list = MoveList::new();
                pos.generate(&mut list);
                // Mostly greedy on the hand evaluation, sometimes random: games with a winner.
                let mv = if rng.random_bool(0.3) {
                    list[rng.random_range(0..list.len())]
                } else {
                    *list.iter().min_by_key(|m| pos.play(m).evaluate()).unwrap()
                };
                lines.push(format!("{}\t{}", pos.to_fen(), hand_evaluate(&pos)));
                pos = pos.play(&mv);
            }
            let result = match result {
                Some(o) => crate::selfplay::format::result_text(o),
                None => {
                    let white = match pos.side_to_move() {
                        Side::White => hand_evaluate(&pos),
                        Side::Black => -hand_evaluate(&pos),
                    };
                    crate::selfplay::format::result_text(match white {
                        s if s > 50 => Outcome::Win(Side::White),
                        s if s < -50 => Outcome::Win(Side::Black),
                        _ => Outcome::Draw,
                    })
                }
            };
            for l in lines {
                text.push_str(&format!("{l}\t{result}\n"));
            }
            text.push_str(&format!("# game {k} result {result}\n"));
        }
        // A game still being written: ignored.
        text.push_str("W:W21,22:B1,2\t0\t1\n");
        text
    }

    #[test]
    fn training_lowers_the_loss_and_reports_held_out_loss() {
        let dir = std::env::temp_dir().join(format!("tempo-train-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        std::fs::write(&data, tiny_data(40, 3)).unwrap();
        let (train, held) =
            load::<BrazilianRules>(std::slice::from_ref(&data), 0.25, 1, None, false).unwrap();
        assert!(train.len() > 300, "{}", train.len());
        assert!(!held.is_empty());
        let o = Options {
            lambda: 0.5,
            k: fit_k(&train),
            epochs: 8,
            l2: 1e-7,
            lr: 1.0,
            batch: 64,
            seed: 1,
            min_count: 0,
        };
        let start = Net::initial::<BrazilianRules>();
        let before = net_loss(&start, &train, &o);
        let mut reported = Vec::new();
        let (net, epochs) = fit(start, &train, &held, &o, |e| reported.push(e.held));
        assert_eq!(epochs.len(), 8);
        assert!(reported.iter().all(|h| h.is_finite()));
        let after = net_loss(&net, &train, &o);
        assert!(after < before, "train loss {before} -> {after}");
        assert!(epochs[7].train < epochs[0].train);
        // The file written is read back as the same weights.
        let bytes = weights::encode(&net);
        assert_eq!(weights::decode_for::<BrazilianRules>(&bytes).unwrap(), net);
        // Data of another variant is refused.
        let err = load::<rules::RussianRules>(&[data], 0.25, 1, None, false).unwrap_err();
        assert!(err.contains("for brazilian, not for russian"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    /// Settings for an L-BFGS fit of `train` (the Adam fields unused), K fitted to it.
    fn lbfgs_options(lambda: f64, train: &Samples) -> Options {
        Options {
            lambda,
            k: fit_k(train),
            epochs: 0,
            l2: 0.0,
            lr: 0.0,
            batch: 1,
            seed: 1,
            min_count: 0,
        }
    }

    /// `--compare` scores a weight file as the fit scores its own weights, and refuses a file
    /// whose edge patterns the data was not read with.
    #[test]
    fn compared_files_are_scored_as_the_fit_scores_its_weights() {
        let dir = std::env::temp_dir().join(format!("tempo-compare-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        std::fs::write(&data, tiny_data(40, 4)).unwrap();
        let (train, held) =
            load::<BrazilianRules>(std::slice::from_ref(&data), 0.25, 1, None, false).unwrap();
        let o = lbfgs_options(0.7, &train);
        let (net, _) = fit_lbfgs(
            Net::initial::<BrazilianRules>(),
            &train,
            &held,
            &o,
            20,
            1.0,
            false,
            |_| {},
        );
        let fitted = dir.join("fitted.bin");
        std::fs::write(&fitted, weights::encode(&net)).unwrap();
        let (t, h, r) = compare_file::<BrazilianRules>(&fitted, &train, &held, &o).unwrap();
        assert_eq!(t, net_loss(&net, &train, &o));
        assert_eq!(h, net_loss(&net, &held, &o));
        assert_eq!(r, net_loss(&net, &held, &Options { lambda: 1.0, ..o }));
        // The untrained start scores worse on the training positions than the fit.
        let start = dir.join("start.bin");
        std::fs::write(&start, weights::encode(&Net::initial::<BrazilianRules>())).unwrap();
        let (t0, _, _) = compare_file::<BrazilianRules>(&start, &train, &held, &o).unwrap();
        assert!(t < t0, "{t} against {t0}");
        // Weights with edge patterns against data read without them, and a missing file.
        let edged = dir.join("edges.bin");
        std::fs::write(
            &edged,
            weights::encode(&Net::initial_with::<BrazilianRules>(true)),
        )
        .unwrap();
        let err = compare_file::<BrazilianRules>(&edged, &train, &held, &o).unwrap_err();
        assert!(
            err.contains("with edge patterns") && err.contains("add --edges"),
            "{err}"
        );
        let err = compare_file::<BrazilianRules>(&dir.join("none.bin"), &train, &held, &o).unwrap_err();
        assert!(err.contains("none.bin"), "{err}");
        // A strong ridge anchored at the fitted weights keeps them; towards zero it undoes them.
        let (kept, _) = fit_lbfgs(net.clone(), &train, &held, &o, 10, 1e7, true, |_| {});
        let (shrunk, _) = fit_lbfgs(net.clone(), &train, &held, &o, 10, 1e7, false, |_| {});
        let (kept, shrunk) = (net_loss(&kept, &train, &o), net_loss(&shrunk, &train, &o));
        assert!((kept - t).abs() < 1e-3, "{kept} against {t}");
        assert!(shrunk > t + 0.01, "{shrunk} against {t}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn lbfgs_lowers_the_loss_and_shrinks_rare_configurations() {
        let dir = std::env::temp_dir().join(format!("tempo-lbfgs-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        std::fs::write(&data, tiny_data(40, 5)).unwrap();
        // With the edge patterns, so that their part of the fit is exercised too.
        let (train, held) = load::<BrazilianRules>(std::slice::from_ref(&data), 0.25, 1, None, true).unwrap();
        assert_eq!(train.slots, 9 + features::EDGES);
        let o = lbfgs_options(1.0, &train);
        let start = Net::initial_with::<BrazilianRules>(true);
        let before = net_loss(&start, &train, &o);
        let (loose, epochs) = fit_lbfgs(start.clone(), &train, &held, &o, 30, 1.0, false, |_| {});
        assert_eq!(epochs.len(), 3);
        assert!(epochs.iter().all(|e| e.held.is_finite()));
        let after = net_loss(&loose, &train, &o);
        assert!(after < before - 0.01, "train loss {before} -> {after}");
        // A far stronger ridge keeps the pattern weights smaller and fits the training data less.
        let (tight, _) = fit_lbfgs(start, &train, &held, &o, 30, 1e4, false, |_| {});
        let size = |n: &Net| {
            n.patterns
                .iter()
                .map(|w| i64::from(w[0]).abs() + i64::from(w[1]).abs())
                .sum::<i64>()
        };
        assert!(
            size(&tight) < size(&loose) / 2,
            "{} against {}",
            size(&tight),
            size(&loose)
        );
        assert!(net_loss(&tight, &train, &o) > after);
        let edge_weights = &loose.patterns[loose.base(loose.regions)..];
        assert!(
            edge_weights.iter().any(|w| w != &[0, 0]),
            "the edge patterns were fitted"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Big windows fitted on a few hundred positions: from zero they lower the loss, from a net
    /// without them read with `--init` they start at zero (the start scores as that net) and
    /// learn a correction; weights no position uses stay at zero.
    #[test]
    fn big_windows_lower_the_loss_and_start_from_a_net_without_them() {
        let dir = std::env::temp_dir().join(format!("tempo-windows-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        std::fs::write(&data, tiny_data(40, 6)).unwrap();
        let path = std::slice::from_ref(&data);
        let (train, held) = load_of::<BrazilianRules>(path, 0.25, 1, None, false, true).unwrap();
        let (plain, plain_held) = load::<BrazilianRules>(path, 0.25, 1, None, false).unwrap();
        assert_eq!(train.slots, 9 + 6);
        assert_eq!(train.len(), plain.len());
        assert!(train.len() > 300, "{}", train.len());
        let o = lbfgs_options(0.7, &train);
        // From the hand-set start, windows and all.
        let start = Net::initial_of::<BrazilianRules>(false, true);
        let before = net_loss(&start, &train, &o);
        let (net, epochs) = fit_lbfgs_used(start, &train, &held, &o, 30, 1.0, false, |_| {});
        assert!(!epochs.is_empty());
        let after = net_loss(&net, &train, &o);
        assert!(after < before - 0.01, "train loss {before} -> {after}");
        let windows = &net.patterns[net.window_base(0)..];
        let nonzero = windows.iter().filter(|w| **w != [0, 0]).count();
        let used: std::collections::HashSet<u32> = train
            .index
            .iter()
            .chain(&held.index)
            .copied()
            .filter(|&x| x as usize >= net.window_base(0))
            .collect();
        assert!(nonzero > 0, "the windows were fitted");
        assert!(
            nonzero <= used.len(),
            "{nonzero} weights set, {} used",
            used.len()
        );
        // From a net without windows: fitted on the same positions read without them.
        let (old, _) = fit_lbfgs(
            Net::initial::<BrazilianRules>(),
            &plain,
            &plain_held,
            &o,
            20,
            1.0,
            false,
            |_| {},
        );
        let file = dir.join("old.bin");
        std::fs::write(&file, weights::encode(&old)).unwrap();
        let init = read_net::<BrazilianRules>(&file, &train).unwrap();
        assert_eq!(init.windows, 6);
        assert!(init.patterns[init.window_base(0)..].iter().all(|w| *w == [0, 0]));
        let old_loss = net_loss(&old, &plain, &o);
        assert_eq!(net_loss(&init, &train, &o), old_loss);
        let (corrected, _) = fit_lbfgs_used(init.clone(), &train, &held, &o, 20, 1.0, true, |_| {});
        assert!(
            net_loss(&corrected, &train, &o) < old_loss - 0.005,
            "{} against {old_loss}",
            net_loss(&corrected, &train, &o)
        );
        // A region configuration no position uses keeps its weight from the start.
        let unused = (0..init.window_base(0))
            .find(|x| !train.index.contains(&(*x as u32)) && !held.index.contains(&(*x as u32)))
            .unwrap();
        assert_eq!(corrected.patterns[unused], init.patterns[unused]);
        // A net with windows against data read without them is refused.
        let with = dir.join("with.bin");
        std::fs::write(&with, weights::encode(&corrected)).unwrap();
        let err = read_net::<BrazilianRules>(&with, &plain).unwrap_err();
        assert!(err.contains("add --windows"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// King terms fitted on a few hundred positions: from zero they lower the loss and write a
    /// version-4 file; data read without them is refused for such weights; without --kings the
    /// attacked squares' term stays out of the fit (its weight stays zero).
    #[test]
    fn king_terms_lower_the_loss_and_need_their_data() {
        let dir = std::env::temp_dir().join(format!("tempo-kings-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        std::fs::write(&data, tiny_data(60, 5)).unwrap();
        let path = std::slice::from_ref(&data);
        let read = Samples {
            kings: true,
            ..Samples::default()
        };
        let (train, held) = load_into::<BrazilianRules>(path, 0.25, 1, None, &read).unwrap();
        assert!(
            train.king_index.len() > 50,
            "{} king entries",
            train.king_index.len()
        );
        let o = lbfgs_options(0.5, &train);
        let start = Net::initial::<BrazilianRules>().with_kings(true);
        let before = net_loss(&start, &train, &o);
        let (net, _) = fit_lbfgs(start, &train, &held, &o, 30, 20.0, false, |_| {});
        assert!(net_loss(&net, &train, &o) < before);
        let table = &net.patterns[net.king_base()..];
        assert_eq!(table.len(), 64);
        assert!(table.iter().filter(|w| **w != [0, 0]).count() > 5, "{table:?}");
        assert_ne!(net.linear[features::KING_ATTACKED], [0, 0]);
        let file = dir.join("kings.bin");
        std::fs::write(&file, weights::encode(&net)).unwrap();
        let (plain, plain_held) = load_of::<BrazilianRules>(path, 0.25, 1, None, false, false).unwrap();
        assert!(plain.king_index.is_empty());
        assert!(
            plain
                .linear
                .chunks(LINEAR)
                .all(|l| l[features::KING_ATTACKED] == 0)
        );
        let err = read_net::<BrazilianRules>(&file, &plain).unwrap_err();
        assert!(err.contains("add --kings"), "{err}");
        assert_eq!(read_net::<BrazilianRules>(&file, &train).unwrap(), net);
        let (plain_fit, _) = fit_lbfgs(
            Net::initial::<BrazilianRules>(),
            &plain,
            &plain_held,
            &o,
            10,
            20.0,
            false,
            |_| {},
        );
        assert_eq!(plain_fit.linear[features::KING_ATTACKED], [0, 0]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
