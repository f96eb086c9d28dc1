//! NLTK's `NISTTokenizer().tokenize(text)` (nltk/tokenize/nist.py, NLTK 3.10.4; `western_lang=True`),
//! the tokenizer HF evaluate's `nist_mt` applies: a port of mteval-v14's tokenizer.
//!
//! It differs from sacreBLEU's `13a` only before the regexes: it drops `<skipped>`, unescapes XML
//! the way `nltk.tokenize.util.xml_unescape` does (`&lt;` `&gt;`, then `&apos;` `&quot;` `&#124;`
//! `&#91;` `&#93;`, `&amp;` last), turns U+2028 into a space, and keeps `-\n` and `\n` as they are.
//! The four regexes and the whitespace join are 13a's. (Lower-casing, `lowercase=True`, is Python's
//! `str.lower()` applied after those substitutions and before the regexes: the caller runs the
//! substitutions and `lower()` in Python and hands the result to [`tokenize_nist_substituted`].)

use std::borrow::Cow;

use super::sacrebleu::tokenize_words;

/// The language-independent substitutions of `NISTTokenizer.lang_independent_sub`, in its order.
fn lang_independent_sub(line: &str) -> Cow<'_, str> {
    if !line.bytes().any(|byte| matches!(byte, b'<' | b'&' | 0xE2)) {
        return Cow::Borrowed(line);
    }
    let mut text = line.replace("<skipped>", "");
    // xml.sax.saxutils.unescape(text, entities): &lt; &gt;, the extra entities in dict order, &amp; last.
    for (entity, replacement) in [
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&apos;", "'"),
        ("&quot;", "\""),
        ("&#124;", "|"),
        ("&#91;", "["),
        ("&#93;", "]"),
        ("&amp;", "&"),
    ] {
        if text.contains(entity) {
            text = text.replace(entity, replacement);
        }
    }
    Cow::Owned(text.replace('\u{2028}', " "))
}

/// `NISTTokenizer().tokenize(line, return_str=True)`, appended to `out` (tokens joined by one space).
///
/// ```
/// use nlgmetrics::text::nist::tokenize_nist;
/// let mut out = String::new();
/// tokenize_nist("It&apos;s 3.5-4, isn't it?", &mut out);
/// assert_eq!(out, "It's 3.5 - 4 , isn't it ?");
/// ```
pub fn tokenize_nist(line: &str, out: &mut String) {
    // The line is padded with a space on each side before the regexes, as 13a does.
    tokenize_words(&lang_independent_sub(line), true, None, out);
}

/// The rest of `NISTTokenizer().tokenize(line)` after `lang_independent_sub` (and, for
/// `lowercase=True`, `str.lower()`): the 13a regexes and the whitespace join.
///
/// ```
/// use nlgmetrics::text::nist::tokenize_nist_substituted;
/// let mut out = String::new();
/// tokenize_nist_substituted("it is 3.5-4, ok", &mut out);
/// assert_eq!(out, "it is 3.5 - 4 , ok");
/// ```
pub fn tokenize_nist_substituted(substituted: &str, out: &mut String) {
    tokenize_words(substituted, true, None, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nist(line: &str) -> String {
        let mut out = String::new();
        tokenize_nist(line, &mut out);
        out
    }

    #[test]
    fn unescapes_as_nltk_and_splits_as_13a() {
        // nltk.tokenize.util.xml_unescape docstring: ')&#124; &amp; &lt; &gt; &apos; &quot; &#93; &#91;'.
        assert_eq!(nist(")&#124; &amp; &lt; &gt; &apos; &quot; &#93; &#91;"), ") | & < > ' \" ] [");
        assert_eq!(nist("a<skipped>b &amp;lt;"), "ab & lt ;"); // &amp; last: "&amp;lt;" stays "&lt;"
        assert_eq!(nist("line-\nbreak\u{2028}x"), "line- break x");
        assert_eq!(nist(""), "");
    }
}
