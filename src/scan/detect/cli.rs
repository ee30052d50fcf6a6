//! Command-line flags and commands: `gitlab-runner register --locked`, `-r TOKEN`,
//! `--tag-list=a,b`, the environment variable the program reads for a flag, and
//! `gitlab-runner exec`.

use super::{FileCtx, Hit, is_ident_byte, word_offsets};

fn split(command: &str) -> (&str, &str) {
    command.split_once(' ').unwrap_or((command, ""))
}

pub fn detect_flag(
    command: &str,
    flag: &str,
    short: Option<&str>,
    env: Option<&str>,
    ctx: &FileCtx,
) -> Vec<Hit> {
    let (program, sub) = split(command);
    let mut out = Vec::new();
    for cmd in ctx.commands(program, sub).iter() {
        for w in &cmd.args {
            let name = w.text.split('=').next().unwrap_or("");
            let long = name == flag;
            let short_hit = short.is_some_and(|s| {
                w.text == s
                    || (w.text.starts_with(s)
                        && w.text.len() > s.len()
                        && !w.text.starts_with("--"))
            });
            if long || short_hit {
                let len = if long {
                    flag.len()
                } else {
                    short.map_or(0, str::len)
                };
                out.push(Hit::new(
                    w.start,
                    w.start + len,
                    if long { flag } else { short.unwrap_or(flag) },
                ));
            }
        }
    }
    // The environment variable the program reads for the flag: only in files that run it.
    if let Some(env) = env
        && ctx.src.text.contains(program)
    {
        for at in word_offsets(ctx.src.text, env, is_ident_byte) {
            if !ctx.src.in_comment(at) {
                out.push(Hit::new(at, at + env.len(), env));
            }
        }
    }
    out
}

pub fn detect_command(command: &str, ctx: &FileCtx) -> Vec<Hit> {
    let (program, sub) = split(command);
    ctx.commands(program, sub)
        .iter()
        .map(|c| Hit::new(c.program.start, c.subcommand.end, command))
        .collect()
}
