//! Timing shared by the benchmarks: medians and 90th percentiles of repeated runs.

use std::time::{Duration, Instant};

fn stats(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    (samples[samples.len() / 2], samples[samples.len() * 9 / 10])
}

/// Run `f` `runs` times after a warm-up and print the median and the 90th percentile.
pub fn measure(name: &str, runs: usize, mut f: impl FnMut()) {
    for _ in 0..runs.min(10) {
        f(); // warm-up
    }
    let samples: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    let (median, p90) = stats(samples);
    println!("{name:<52} median {median:>10.3?}   p90 {p90:>10.3?}   ({runs} runs)");
}
