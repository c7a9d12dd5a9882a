//! Where items are on their channel at a moment, and where held items sit: from send and
//! arrival times alone, so the motion needs nothing from the engine but its plain data.

use super::{ChannelPath, Metrics, Rect};
use crate::ui::fmt::clamp;

/// Where each item of one channel is, as a distance along its path of length `len`, at
/// virtual time `t`. `times` are the items' (sent, arrives) times, head of the queue first.
/// An item moves at constant speed from the sender (at its send time) to the port (at its
/// arrival time); items that have arrived but were not taken yet wait in a row at the port,
/// `spacing` apart, the head nearest to it.
pub fn item_offsets(
    times: impl IntoIterator<Item = (u64, u64)>,
    t: f64,
    len: f64,
    spacing: f64,
) -> Vec<f64> {
    times
        .into_iter()
        .enumerate()
        .map(|(i, (sent, arrives))| item_offset(i, sent, arrives, t, len, spacing))
        .collect()
}

/// The distance along its channel of the `i`-th queued item (see [`item_offsets`]); the frame
/// loop calls it per item so that placing items allocates nothing.
pub fn item_offset(i: usize, sent: u64, arrives: u64, t: f64, len: f64, spacing: f64) -> f64 {
    let frac = if arrives <= sent {
        1.0
    } else {
        clamp((t - sent as f64) / (arrives - sent) as f64, 0.0, 1.0)
    };
    let end = (len - spacing * (i as f64 + 0.5)).max(0.0);
    (frac * len).min(end)
}

/// Where a held item's square sits: `k` = 0 is the oldest, nearest the port, and the row
/// grows away from the port above the channel's tail. `None` when the row is full.
pub fn held_slot(path: &ChannelPath, k: usize, m: &Metrics) -> Option<Rect> {
    let step = m.held + 2.0;
    let room = ((path.tail_len() - 2.0 * m.held).max(0.0) / step).floor() as usize;
    if k >= room.max(1) {
        return None;
    }
    Some(Rect {
        x: path.to.x - 1.5 * m.held - step * (k + 1) as f64,
        y: path.to.y - m.held - 3.0,
        w: m.held,
        h: m.held,
    })
}

/// How many held items a channel's tail shows before it says "+n".
pub fn held_capacity(path: &ChannelPath, m: &Metrics) -> usize {
    let step = m.held + 2.0;
    (((path.tail_len() - 2.0 * m.held).max(0.0) / step).floor() as usize).max(1)
}

/// The median of item speeds (0 for none): the paint cadence follows a typical item, not the
/// one on the longest diagonal.
pub fn typical_speed(speeds: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<(u64, u64)> = speeds
        .filter(|s| s.is_finite())
        .map(|s| (order_key(s), s.to_bits()))
        .collect();
    v.sort_unstable();
    v.get(v.len() / 2).map_or(0.0, |&(_, s)| f64::from_bits(s))
}

/// An `f64` as a `u64` in the same total order, so that every sort on the page is the one
/// `sort_unstable` over `(u64, u64)` pairs — each sort instantiated per type costs kilobytes of
/// wasm.
pub fn order_key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | 1 << 63
    }
}
