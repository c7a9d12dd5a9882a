//! `abs-sim flink run`.
use super::export::Job;
use super::Args;

pub fn run(_job: &Job, _args: &Args) -> Result<(), String> {
    Err("not yet".into())
}
