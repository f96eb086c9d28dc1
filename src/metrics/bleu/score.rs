//! BLEU scores from summed statistics, reproducing sacreBLEU 2.6.0's `BLEU.compute_bleu`
//! (`sacrebleu/metrics/bleu.py`) operation by operation, so results are bit-identical.

use rayon::prelude::*;

use super::stats::{check_max_order, row_width};
use crate::error::{Error, Result};

/// sacreBLEU's `my_log(0.0)` (`sacrebleu/utils.py`): an *integer* stand-in for log(0).
const LOG_ZERO: i64 = -9_999_999_999;

/// Below this many rows, scoring runs on the calling thread.
const PARALLEL_THRESHOLD: usize = 256;

/// The smoothing methods of Chen & Cherry (2014) as named by sacreBLEU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Smoothing {
    /// No smoothing.
    None,
    /// Method 1: a zero-match order gets precision `smooth_value / total`.
    Floor,
    /// Method 2: add `smooth_value` to matches and totals of orders ≥ 2.
    AddK,
    /// Method 3 (NIST, mteval-v13a): the k-th zero-match order gets `1 / (2^k · total)`.
    Exp,
}

impl Smoothing {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "none" => Ok(Self::None),
            "floor" => Ok(Self::Floor),
            "add-k" => Ok(Self::AddK),
            "exp" => Ok(Self::Exp),
            other => Err(Error::InvalidOption(format!(
                "unknown smoothing method {other:?}; expected one of 'none', 'floor', 'add-k', 'exp'"
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Floor => "floor",
            Self::AddK => "add-k",
            Self::Exp => "exp",
        }
    }

    /// sacreBLEU's `SMOOTH_DEFAULTS` (floor 0.1, add-k 1); `None` when the method takes no value.
    pub fn default_value(self) -> Option<f64> {
        match self {
            Self::Floor => Some(0.1),
            Self::AddK => Some(1.0),
            Self::None | Self::Exp => None,
        }
    }
}

/// How Python's built-in `sum()` adds floats: plain left-to-right before CPython 3.12,
/// Neumaier-compensated from 3.12 on. sacreBLEU sums the log precisions with `sum()`, so the
/// last bit of a score depends on the Python version that runs it; we follow the caller's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Summation {
    Sequential,
    Neumaier,
}

/// One term of the log-precision sum: sacreBLEU's `my_log` returns an int for a zero precision.
#[derive(Debug, Clone, Copy)]
enum LogTerm {
    Int(i64),
    Float(f64),
}

fn my_log(value: f64) -> LogTerm {
    if value == 0.0 {
        LogTerm::Int(LOG_ZERO)
    } else {
        LogTerm::Float(value.ln())
    }
}

/// The result of Python's `sum(terms)` (start 0), with ints and floats exactly as CPython adds them.
/// Returns `Err(int_sum)` when every term is an int (Python's result is then an int).
fn python_sum(terms: &[LogTerm], summation: Summation) -> std::result::Result<f64, i64> {
    // Leading ints are summed exactly as ints (CPython's int fast path).
    let mut int_sum: i64 = 0;
    let mut rest = terms;
    while let Some((LogTerm::Int(value), tail)) = rest.split_first() {
        int_sum += value;
        rest = tail;
    }
    let Some((first, tail)) = rest.split_first() else {
        return Err(int_sum);
    };
    let LogTerm::Float(first) = *first else { unreachable!("leading ints consumed above") };
    let mut total = int_sum as f64 + first;
    let mut compensation = 0.0f64;
    for term in tail {
        match (*term, summation) {
            (LogTerm::Int(value), _) => total += value as f64,
            (LogTerm::Float(x), Summation::Sequential) => total += x,
            (LogTerm::Float(x), Summation::Neumaier) => {
                let t = total + x;
                if total.abs() >= x.abs() {
                    compensation += (total - t) + x;
                } else {
                    compensation += (x - t) + total;
                }
                total = t;
            }
        }
    }
    if compensation != 0.0 && compensation.is_finite() {
        total += compensation;
    }
    Ok(total)
}

/// A corpus (or sentence) BLEU score and its parts; precisions are percentages as in sacreBLEU.
#[derive(Debug, Clone, PartialEq)]
pub struct BleuScore {
    pub score: f64,
    pub precisions: Vec<f64>,
    pub bp: f64,
}

/// Everything that turns summed statistics into a score.
#[derive(Debug, Clone)]
pub struct BleuScoring {
    pub max_order: usize,
    pub smoothing: Smoothing,
    /// The floor / add-k value (the method's default already filled in; unused by none/exp).
    pub smooth_value: f64,
    pub effective_order: bool,
    /// Order weights; `None` is sacreBLEU's uniform geometric mean, computed exactly as sacreBLEU does.
    pub weights: Option<Vec<f64>>,
    pub summation: Summation,
}

impl BleuScoring {
    /// Validated options; `smooth_value: None` takes the method's default.
    pub fn new(
        max_order: usize,
        smoothing: Smoothing,
        smooth_value: Option<f64>,
        effective_order: bool,
        weights: Option<Vec<f64>>,
        summation: Summation,
    ) -> Result<Self> {
        check_max_order(max_order)?;
        let smooth_value = smooth_value.or(smoothing.default_value()).unwrap_or(0.0);
        if !smooth_value.is_finite() || smooth_value < 0.0 {
            return Err(Error::InvalidOption(format!("smooth_value must be a finite number >= 0, got {smooth_value}")));
        }
        if let Some(weights) = &weights {
            if weights.len() != max_order {
                return Err(Error::InvalidOption(format!(
                    "weights has {} entries but max_order is {max_order}",
                    weights.len()
                )));
            }
            if let Some(bad) = weights.iter().find(|w| !w.is_finite() || **w < 0.0) {
                return Err(Error::InvalidOption(format!("weights must be finite numbers >= 0, got {bad}")));
            }
        }
        Ok(Self { max_order, smoothing, smooth_value, effective_order, weights, summation })
    }

    /// The score of one statistics row (`[sys_len, ref_len, matches.., totals..]`, usually summed).
    pub fn score(&self, stats: &[i64]) -> Result<BleuScore> {
        let n = self.max_order;
        if stats.len() != row_width(n) {
            return Err(Error::ShapeMismatch(format!(
                "a statistics row for max_order {n} has {} columns, got {}",
                row_width(n),
                stats.len()
            )));
        }
        Ok(self.score_of_row(stats))
    }

    /// The score of one row of `row_width(max_order)` columns (unchecked: a shorter row panics).
    pub fn score_of_row(&self, stats: &[i64]) -> BleuScore {
        let max_order = self.max_order;
        let (sys_len, ref_len) = (stats[0], stats[1]);
        let correct = &stats[2..2 + max_order];
        let total = &stats[2 + max_order..2 + 2 * max_order];

        let mut bp = 1.0f64;
        if sys_len < ref_len {
            bp = if sys_len > 0 { (1.0 - ref_len as f64 / sys_len as f64).exp() } else { 0.0 };
        }
        let mut precisions = vec![0.0f64; max_order];
        // Early stop when nothing matches (sacreBLEU #141).
        if correct.iter().all(|&c| c == 0) {
            return BleuScore { score: 0.0, precisions, bp };
        }

        let k = self.smooth_value;
        let mut fractions = vec![0.0f64; max_order]; // precisions as 0–1 fractions, for `weights`
        let mut smooth_mteval = 1.0f64;
        let mut eff_order = max_order;
        for order in 1..=max_order {
            let mut c = correct[order - 1] as f64;
            let mut t = total[order - 1] as f64;
            if self.smoothing == Smoothing::AddK && order > 1 {
                c += k;
                t += k;
            }
            if t == 0.0 {
                break;
            }
            if self.effective_order {
                eff_order = order;
            }
            let slot = order - 1;
            if c == 0.0 {
                match self.smoothing {
                    Smoothing::Exp => {
                        smooth_mteval *= 2.0;
                        precisions[slot] = 100.0 / (smooth_mteval * t);
                        fractions[slot] = 1.0 / (smooth_mteval * t);
                    }
                    Smoothing::Floor => {
                        precisions[slot] = 100.0 * k / t;
                        fractions[slot] = k / t;
                    }
                    Smoothing::None | Smoothing::AddK => {}
                }
            } else {
                precisions[slot] = 100.0 * c / t;
                fractions[slot] = c / t;
            }
        }

        let score = match &self.weights {
            None => {
                let terms: Vec<LogTerm> = precisions[..eff_order].iter().map(|&p| my_log(p)).collect();
                let mean = match python_sum(&terms, self.summation) {
                    Ok(sum) => sum / eff_order as f64,
                    // int / int in Python is the correctly rounded quotient, as is f64 division here.
                    Err(int_sum) => int_sum as f64 / eff_order as f64,
                };
                bp * mean.exp()
            }
            Some(weights) => {
                // Weighted geometric mean of the 0–1 precisions, weights used as given (not renormalised).
                let mut weighted = 0.0f64;
                for (weight, &fraction) in weights[..eff_order].iter().zip(&fractions[..eff_order]) {
                    let log = match my_log(fraction) {
                        LogTerm::Int(value) => value as f64,
                        LogTerm::Float(value) => value,
                    };
                    weighted += weight * log;
                }
                100.0 * (bp * weighted.exp())
            }
        };
        BleuScore { score, precisions, bp }
    }

    /// The score of every row of a flattened `n × row_width` matrix (e.g. sentence scores).
    pub fn score_rows(&self, rows: &[i64]) -> Result<Vec<f64>> {
        let width = row_width(self.max_order);
        if !rows.len().is_multiple_of(width) {
            return Err(Error::ShapeMismatch(format!(
                "statistics for max_order {} need {width} columns per row",
                self.max_order
            )));
        }
        let score = |row: &[i64]| self.score_of_row(row).score;
        if rows.len() / width >= PARALLEL_THRESHOLD {
            Ok(rows.par_chunks(width).map(score).collect())
        } else {
            Ok(rows.chunks(width).map(score).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scoring(smoothing: Smoothing, value: Option<f64>, effective_order: bool) -> BleuScoring {
        BleuScoring::new(4, smoothing, value, effective_order, None, Summation::Sequential).unwrap()
    }

    #[test]
    fn floor_zero_seed_example_scores_zero() {
        let result = scoring(Smoothing::Floor, Some(0.0), false).score(&[8, 6, 5, 3, 1, 0, 8, 7, 6, 5]).unwrap();
        assert_eq!(result.score, 0.0);
        assert_eq!(result.precisions, vec![62.5, 300.0 / 7.0, 100.0 / 6.0, 0.0]);
        assert_eq!(result.bp, 1.0);
    }

    #[test]
    fn weights_halving_per_order_seed_example() {
        // "The cat sat on the mat" vs "The cat is on the mat": 5/6, 3/5, 1/4; BP 1.
        let weighted =
            BleuScoring::new(3, Smoothing::None, None, false, Some(vec![0.5, 0.25, 0.125]), Summation::Sequential)
                .unwrap();
        let result = weighted.score(&[6, 6, 5, 3, 1, 6, 5, 4]).unwrap();
        let expected = 100.0 * (0.5 * (5.0f64 / 6.0).ln() + 0.25 * (3.0f64 / 5.0).ln() + 0.125 * 0.25f64.ln()).exp();
        assert_eq!(result.score, expected);
        assert!((result.score / 100.0 - 0.6756000774035172).abs() < 1e-15);
    }

    #[test]
    fn identity_scores_100_and_no_match_scores_0() {
        let perfect = scoring(Smoothing::Exp, None, false).score(&[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]).unwrap();
        // sacreBLEU's identity score is exp(ln 100) = 100.00000000000004, not 100.
        assert_eq!(perfect.score, 100.0f64.ln().exp());
        let nothing = scoring(Smoothing::Exp, None, false).score(&[4, 4, 0, 0, 0, 0, 4, 3, 2, 1]).unwrap();
        assert_eq!(nothing.score, 0.0);
        assert_eq!(nothing.precisions, vec![0.0; 4]);
    }

    #[test]
    fn brevity_penalty_and_empty_system() {
        let short = scoring(Smoothing::None, None, false).score(&[2, 4, 2, 1, 0, 0, 2, 1, 0, 0]).unwrap();
        assert_eq!(short.bp, (1.0f64 - 2.0).exp());
        let empty = scoring(Smoothing::None, None, false).score(&[0, 4, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        assert_eq!((empty.score, empty.bp), (0.0, 0.0));
    }

    #[test]
    fn exp_smoothing_halves_per_zero_order() {
        let result = scoring(Smoothing::Exp, None, false).score(&[5, 5, 3, 0, 0, 0, 5, 4, 3, 2]).unwrap();
        assert_eq!(result.precisions, vec![60.0, 100.0 / 8.0, 100.0 / 12.0, 100.0 / 16.0]);
    }

    #[test]
    fn effective_order_drops_orders_without_ngrams() {
        let result = scoring(Smoothing::None, None, true).score(&[2, 2, 2, 1, 0, 0, 2, 1, 0, 0]).unwrap();
        assert_eq!(result.score, 100.0f64.ln().exp());
        let without = scoring(Smoothing::None, None, false).score(&[2, 2, 2, 1, 0, 0, 2, 1, 0, 0]).unwrap();
        assert_eq!(without.score, 0.0);
    }

    #[test]
    fn python_sum_modes() {
        let terms = [LogTerm::Float(1e16), LogTerm::Float(1.0), LogTerm::Float(-1e16)];
        assert_eq!(python_sum(&terms, Summation::Sequential), Ok(0.0));
        assert_eq!(python_sum(&terms, Summation::Neumaier), Ok(1.0));
        assert_eq!(python_sum(&[LogTerm::Int(LOG_ZERO); 2], Summation::Neumaier), Err(2 * LOG_ZERO));
        assert_eq!(python_sum(&[LogTerm::Int(-3), LogTerm::Float(0.5)], Summation::Sequential), Ok(-2.5));
        // CPython: sum([0.1] * 10) is 0.9999999999999999 before 3.12 and 1.0 from 3.12 on.
        let tenths = [LogTerm::Float(0.1); 10];
        assert_eq!(python_sum(&tenths, Summation::Sequential), Ok(0.9999999999999999));
        assert_eq!(python_sum(&tenths, Summation::Neumaier), Ok(1.0));
    }

    #[test]
    fn options_are_validated() {
        let bad = |value, weights| BleuScoring::new(2, Smoothing::Floor, value, false, weights, Summation::Sequential);
        assert!(bad(Some(-0.1), None).is_err());
        assert!(bad(Some(f64::NAN), None).is_err());
        assert!(bad(None, Some(vec![1.0])).is_err());
        assert!(bad(None, Some(vec![1.0, -1.0])).is_err());
        assert!(bad(None, Some(vec![0.5, 0.5])).is_ok());
        assert!(Smoothing::from_name("laplace").is_err());
        assert!(scoring(Smoothing::Exp, None, false).score(&[1, 2, 3]).is_err());
        assert!(scoring(Smoothing::Exp, None, false).score_rows(&[1, 2, 3]).is_err());
    }
}
