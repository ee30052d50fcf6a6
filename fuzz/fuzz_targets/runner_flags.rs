//! The command-line parser for runner flags: words stay inside the text, in order, and within
//! the reach the command gives for them.
#![no_main]
use libfuzzer_sys::fuzz_target;
use uplint::scan::cmdline;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for yaml in [false, true] {
        for cmd in cmdline::find(&text, "gitlab-runner", "register", yaml) {
            let mut last = cmd.subcommand.end;
            let reach = cmd.args_reach();
            for w in &cmd.args() {
                assert!(w.start >= last && w.end <= text.len() && w.start < w.end);
                // The words lie where the command says they do without reading them.
                assert!(reach.is_none_or(|(from, to)| w.start >= from && w.end <= to));
                last = w.end;
            }
        }
    }
});
