//! The compare view's figures, computed from plain series.

use super::{latency_points, BUCKET, LATENCY_WINDOW};

fn mid(i: usize) -> f64 {
    (i as u64 * BUCKET + BUCKET / 2) as f64
}

#[test]
fn a_latency_point_is_the_mean_of_its_window_of_buckets() {
    // Five buckets is the window: the fifth point is the mean of all of them; the sixth has
    // left the first bucket out.
    assert_eq!(LATENCY_WINDOW, 5);
    let buckets = vec![vec![100], vec![2, 4], vec![6], vec![8], vec![10], vec![12]];
    let points = latency_points(&buckets, false);
    assert_eq!(points.len(), 6);
    assert_eq!(points[0], (mid(0), 100.0));
    assert_eq!(points[1], (mid(1), (100.0 + 2.0 + 4.0) / 3.0));
    assert_eq!(points[4], (mid(4), (100 + 2 + 4 + 6 + 8 + 10) as f64 / 6.0));
    assert_eq!(points[5], (mid(5), (2 + 4 + 6 + 8 + 10 + 12) as f64 / 6.0));
}

#[test]
fn the_mean_not_the_median_so_a_fast_and_a_slow_input_do_not_zigzag() {
    // Records from a fast input (1 ms) and a slow one (40 ms), the mix changing bucket by
    // bucket: a median would jump between 1 and 40; the mean moves between them.
    let buckets: Vec<Vec<u32>> = (0..12)
        .map(|i| {
            if i % 2 == 0 {
                vec![1, 1, 40]
            } else {
                vec![1, 40, 40]
            }
        })
        .collect();
    let ys: Vec<f64> = latency_points(&buckets, false)
        .iter()
        .map(|p| p.1)
        .collect();
    let steady = &ys[LATENCY_WINDOW..];
    let (lo, hi) = steady
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &y| (lo.min(y), hi.max(y)));
    assert!(
        lo > 15.0 && hi < 26.0,
        "the mean stays between the inputs: {steady:?}"
    );
    assert!(hi - lo < 3.0, "no zigzag: {steady:?}");
}

#[test]
fn a_bucket_without_records_has_no_point_and_p99_is_the_windows_slowest() {
    let buckets = vec![vec![5], vec![], vec![7, 300], vec![]];
    let mean = latency_points(&buckets, false);
    assert_eq!(
        mean.iter().map(|p| p.0).collect::<Vec<_>>(),
        [mid(0), mid(2)]
    );
    let p99 = latency_points(&buckets, true);
    assert_eq!(p99, [(mid(0), 5.0), (mid(2), 300.0)]);
    assert!(latency_points(&[], false).is_empty());
}
