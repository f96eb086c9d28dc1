//! Membership in sorted, non-overlapping code-point range tables (the generated Unicode tables).

/// Whether `c` lies in one of `ranges`, which must be sorted and non-overlapping `(first, last)` pairs.
///
/// ```
/// use nlgmetrics::text::ranges::contains;
/// assert!(contains(&[(0x30, 0x39), (0x41, 0x5A)], 'B'));
/// assert!(!contains(&[(0x30, 0x39), (0x41, 0x5A)], 'a'));
/// ```
pub fn contains(ranges: &[(u32, u32)], c: char) -> bool {
    let code = c as u32;
    ranges
        .binary_search_by(|&(first, last)| {
            if last < code {
                std::cmp::Ordering::Less
            } else if first > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}
