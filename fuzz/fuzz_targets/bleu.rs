#![no_main]
// Checks: nlgmetrics::fuzz_checks::bleu (src/fuzz_checks).
libfuzzer_sys::fuzz_target!(|data: &[u8]| nlgmetrics::fuzz_checks::bleu(data));
