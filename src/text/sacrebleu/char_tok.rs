//! `char` (sacrebleu/tokenizers/tokenizer_char.py): `" ".join(line)`, every character (whitespace
//! included) separated by one space.

pub(crate) fn tokenize_char(line: &str, out: &mut String) {
    let mut chars = line.chars();
    if let Some(first) = chars.next() {
        out.push(first);
        for c in chars {
            out.push(' ');
            out.push(c);
        }
    }
}
