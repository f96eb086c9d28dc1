//! Corpus reduction of the official SQuAD scripts (evaluate-v1.1.py, evaluate-v2.0.py):
//! sequential sums in dataset order, as the scripts' `+=` / `sum()` (CPython ≤ 3.11) add them.

use crate::error::{Error, Result};

/// evaluate-v1.1.py: `100 * Σ / total` where `total` counts every dataset question, answered or not.
pub fn squad_v1_totals(exact: &[f64], f1: &[f64], total: usize) -> Result<(f64, f64)> {
    if total == 0 {
        return Err(Error::ShapeMismatch("the dataset has no questions".into()));
    }
    let exact_sum: f64 = exact.iter().fold(0.0, |sum, &x| sum + x);
    let f1_sum: f64 = f1.iter().fold(0.0, |sum, &x| sum + x);
    Ok((100.0 * exact_sum / total as f64, 100.0 * f1_sum / total as f64))
}

/// One scored question of a v2.0 evaluation, in dataset order.
#[derive(Debug, Clone, Copy)]
pub struct V2Question {
    pub has_answer: bool,
    pub exact: f64,
    pub f1: f64,
    /// The prediction is the empty string (the script tests `if preds[qid]`).
    pub prediction_empty: bool,
    pub na_prob: f64,
    /// Position of the question in the no-answer-probability mapping (ties keep this order).
    pub na_rank: usize,
}

/// `exact`, `f1`, `total` over a subset, as `make_eval_dict`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct V2Subset {
    pub exact: f64,
    pub f1: f64,
    pub total: usize,
}

/// `best_exact`, `best_exact_thresh`, `best_f1`, `best_f1_thresh`, as `find_all_best_thresh`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct V2BestThresholds {
    pub best_exact: f64,
    pub best_exact_thresh: f64,
    pub best_f1: f64,
    pub best_f1_thresh: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct V2Evaluation {
    pub overall: V2Subset,
    pub has_ans: Option<V2Subset>,
    pub no_ans: Option<V2Subset>,
    pub best: Option<V2BestThresholds>,
    /// Per-question scores after the no-answer threshold.
    pub exact_thresholded: Vec<f64>,
    pub f1_thresholded: Vec<f64>,
}

fn subset(exact: &[f64], f1: &[f64], members: &[usize]) -> V2Subset {
    let total = members.len();
    let exact_sum = members.iter().fold(0.0, |sum, &i| sum + exact[i]);
    let f1_sum = members.iter().fold(0.0, |sum, &i| sum + f1[i]);
    V2Subset { exact: 100.0 * exact_sum / total as f64, f1: 100.0 * f1_sum / total as f64, total }
}

/// `find_best_thresh`: sweep questions by rising no-answer probability, keeping the best running score.
fn best_threshold(
    questions: &[V2Question],
    order: &[usize],
    raw: impl Fn(&V2Question) -> f64,
    num_no_ans: usize,
) -> (f64, f64) {
    let mut current = num_no_ans as f64;
    let mut best = current;
    let mut best_thresh = 0.0;
    for &index in order {
        let question = &questions[index];
        let diff = if question.has_answer {
            raw(question)
        } else if question.prediction_empty {
            0.0
        } else {
            -1.0
        };
        current += diff;
        if current > best {
            best = current;
            best_thresh = question.na_prob;
        }
    }
    (100.0 * best / questions.len() as f64, best_thresh)
}

/// evaluate-v2.0.py's `main` on already-scored questions (every dataset question, deduplicated).
/// `num_no_ans` counts unanswerable questions in the dataset; `with_best_thresholds` is true when
/// the caller supplied no-answer probabilities (the script's `--na-prob-file`).
pub fn squad_v2_evaluation(
    questions: &[V2Question],
    num_no_ans: usize,
    na_prob_thresh: f64,
    with_best_thresholds: bool,
) -> Result<V2Evaluation> {
    if questions.is_empty() {
        return Err(Error::ShapeMismatch("no question has a prediction".into()));
    }
    if questions.iter().any(|q| q.na_prob.is_nan()) {
        return Err(Error::InvalidOption("no-answer probabilities must not be NaN".into()));
    }
    let thresholded = |raw: fn(&V2Question) -> f64| -> Vec<f64> {
        questions
            .iter()
            .map(|q| {
                if q.na_prob > na_prob_thresh {
                    if q.has_answer {
                        0.0
                    } else {
                        1.0
                    }
                } else {
                    raw(q)
                }
            })
            .collect()
    };
    let exact_thresholded = thresholded(|q| q.exact);
    let f1_thresholded = thresholded(|q| q.f1);
    let all: Vec<usize> = (0..questions.len()).collect();
    let has: Vec<usize> = all.iter().copied().filter(|&i| questions[i].has_answer).collect();
    let no: Vec<usize> = all.iter().copied().filter(|&i| !questions[i].has_answer).collect();
    let overall = subset(&exact_thresholded, &f1_thresholded, &all);
    let has_ans = (!has.is_empty()).then(|| subset(&exact_thresholded, &f1_thresholded, &has));
    let no_ans = (!no.is_empty()).then(|| subset(&exact_thresholded, &f1_thresholded, &no));
    let best = with_best_thresholds.then(|| {
        let mut order = all.clone();
        // `sorted(na_probs, key=na_probs.get)` is stable: ties keep the mapping's order.
        order.sort_by(|&a, &b| {
            questions[a]
                .na_prob
                .partial_cmp(&questions[b].na_prob)
                .unwrap()
                .then(questions[a].na_rank.cmp(&questions[b].na_rank))
        });
        let (best_exact, best_exact_thresh) = best_threshold(questions, &order, |q| q.exact, num_no_ans);
        let (best_f1, best_f1_thresh) = best_threshold(questions, &order, |q| q.f1, num_no_ans);
        V2BestThresholds { best_exact, best_exact_thresh, best_f1, best_f1_thresh }
    });
    Ok(V2Evaluation { overall, has_ans, no_ans, best, exact_thresholded, f1_thresholded })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(
        has_answer: bool,
        exact: f64,
        f1: f64,
        prediction_empty: bool,
        na_prob: f64,
        na_rank: usize,
    ) -> V2Question {
        V2Question { has_answer, exact, f1, prediction_empty, na_prob, na_rank }
    }

    #[test]
    fn v1_divides_by_every_question() {
        assert_eq!(squad_v1_totals(&[1.0, 0.0], &[1.0, 0.5], 4).unwrap(), (25.0, 37.5));
        assert!(squad_v1_totals(&[], &[], 0).is_err());
    }

    #[test]
    fn v2_breakdown_and_thresholds() {
        let questions = [
            question(true, 1.0, 1.0, false, 0.1, 0),
            question(false, 0.0, 0.0, false, 0.9, 1),
            question(true, 0.0, 0.5, false, 0.5, 2),
        ];
        let eval = squad_v2_evaluation(&questions, 1, 1.0, true).unwrap();
        assert_eq!(eval.overall.total, 3);
        assert_eq!(eval.has_ans.unwrap(), V2Subset { exact: 50.0, f1: 75.0, total: 2 });
        assert_eq!(eval.no_ans.unwrap().exact, 0.0);
        // Sweep: start 1; +1 (0.1) → 2; +0 (0.5) → 2; −1 (0.9) → 1. Best 2 at 0.1.
        let best = eval.best.unwrap();
        assert_eq!((best.best_exact, best.best_exact_thresh), (100.0 * 2.0 / 3.0, 0.1));
        // F1 sweep: 2 at 0.1, 2.5 at 0.5.
        assert_eq!((best.best_f1, best.best_f1_thresh), (100.0 * 2.5 / 3.0, 0.5));
        // Threshold 0.4 turns questions 1 and 2 into "no answer".
        let eval = squad_v2_evaluation(&questions, 1, 0.4, false).unwrap();
        assert_eq!(eval.exact_thresholded, vec![1.0, 1.0, 0.0]);
        assert!(eval.best.is_none());
    }
}
