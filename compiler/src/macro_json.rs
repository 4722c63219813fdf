//! JSON from the tokens of a macro argument. Not a public API: the `tool_schema!` macro reads
//! its inline schemas with it, and it lives in a library so that it can be fuzzed.
//!
//! The tokens are read as JSON directly rather than through their printed text: strings are
//! Rust string literals (so `"\u{e9}"`, raw strings and every Rust escape mean what they mean
//! in Rust), numbers keep the digits as written, and members keep their order. Each value's
//! span is kept under its JSON Pointer so that a schema error can point at the value at fault.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree, token_stream};
use std::iter::Peekable;

/// A JSON document read from tokens.
///
/// ```
/// use proc_macro2::{TokenStream, TokenTree};
///
/// let tokens: TokenStream = r#"{"a": [1, -2.5]}"#.parse().unwrap();
/// let Some(TokenTree::Group(group)) = tokens.into_iter().next() else { unreachable!() };
/// let json = toolschema_compiler::macro_json::from_group(&group).unwrap();
/// assert_eq!(json.text, r#"{"a":[1,-2.5]}"#);
/// ```
pub struct Json {
    /// Compact JSON text, members in the order written.
    pub text: String,
    /// The span of every value, by JSON Pointer; the root is `""`.
    spans: Vec<(String, Span)>,
}

impl Json {
    /// The span of the value at `pointer`, or of its closest enclosing value.
    ///
    /// ```
    /// use proc_macro2::{TokenStream, TokenTree};
    ///
    /// let tokens: TokenStream = r#"{"a": {"b": null}}"#.parse().unwrap();
    /// let Some(TokenTree::Group(group)) = tokens.into_iter().next() else { unreachable!() };
    /// let json = toolschema_compiler::macro_json::from_group(&group).unwrap();
    /// let _null = json.span("/a/b");
    /// let _closest = json.span("/a/b/c"); // the span of `null`, the closest enclosing value
    /// ```
    pub fn span(&self, pointer: &str) -> Span {
        let mut best: Option<(usize, Span)> = None;
        for (p, span) in &self.spans {
            let encloses = pointer == p
                || (pointer.starts_with(p.as_str()) && pointer[p.len()..].starts_with('/'));
            if encloses && best.is_none_or(|(len, _)| p.len() > len) {
                best = Some((p.len(), *span));
            }
        }
        best.map_or_else(Span::call_site, |(_, span)| span)
    }
}

type Tokens = Peekable<token_stream::IntoIter>;

/// Reads a braced group as a JSON object.
///
/// ```
/// use proc_macro2::{TokenStream, TokenTree};
///
/// let tokens: TokenStream = r#"{"a": 1,}"#.parse().unwrap();
/// let Some(TokenTree::Group(group)) = tokens.into_iter().next() else { unreachable!() };
/// let err = toolschema_compiler::macro_json::from_group(&group).err().unwrap();
/// assert_eq!(err.to_string(), "trailing comma (not allowed in JSON)");
/// ```
pub fn from_group(group: &Group) -> syn::Result<Json> {
    let mut json = Json {
        text: String::new(),
        spans: Vec::new(),
    };
    let mut tokens = TokenStream::from(TokenTree::Group(group.clone()))
        .into_iter()
        .peekable();
    let first = tokens.next().expect("one group");
    value(first, &mut tokens, "", &mut json)?;
    Ok(json)
}

fn value(tt: TokenTree, rest: &mut Tokens, pointer: &str, json: &mut Json) -> syn::Result<()> {
    json.spans.push((pointer.to_string(), tt.span()));
    match tt {
        TokenTree::Group(g) => match g.delimiter() {
            Delimiter::Brace => object(&g, pointer, json),
            Delimiter::Bracket => array(&g, pointer, json),
            Delimiter::None => {
                // A value passed through a `macro_rules!` fragment.
                let mut inner = g.stream().into_iter().peekable();
                let Some(first) = inner.next() else {
                    return Err(syn::Error::new(g.span(), "expected a JSON value"));
                };
                value(first, &mut inner, pointer, json)?;
                match inner.next() {
                    None => Ok(()),
                    Some(extra) => Err(syn::Error::new(extra.span(), "expected one JSON value")),
                }
            }
            Delimiter::Parenthesis => Err(syn::Error::new(
                g.span(),
                "expected a JSON value, found parentheses",
            )),
        },
        TokenTree::Ident(ident) => {
            let word = ident.to_string();
            match word.as_str() {
                "true" | "false" | "null" => {
                    json.text.push_str(&word);
                    Ok(())
                }
                _ => Err(syn::Error::new(
                    ident.span(),
                    format!(
                        "expected a JSON value, found `{word}` (only `true`, `false` and `null` are words in JSON)"
                    ),
                )),
            }
        }
        TokenTree::Punct(p) if p.as_char() == '-' => match rest.next() {
            Some(TokenTree::Literal(lit)) => number(&format!("-{lit}"), lit.span(), json),
            Some(other) => Err(syn::Error::new(other.span(), "expected a number after `-`")),
            None => Err(syn::Error::new(p.span(), "expected a number after `-`")),
        },
        TokenTree::Punct(p) => Err(syn::Error::new(
            p.span(),
            format!("expected a JSON value, found `{}`", p.as_char()),
        )),
        TokenTree::Literal(lit) => match syn::Lit::new(lit.clone()) {
            syn::Lit::Str(s) if s.suffix().is_empty() => {
                json.text
                    .push_str(&serde_json::to_string(&s.value()).expect("strings serialize"));
                Ok(())
            }
            syn::Lit::Int(_) | syn::Lit::Float(_) => number(&lit.to_string(), lit.span(), json),
            _ => Err(syn::Error::new(
                lit.span(),
                "expected a JSON value: a string must be a plain Rust string literal",
            )),
        },
    }
}

fn number(text: &str, span: Span, json: &mut Json) -> syn::Result<()> {
    if !is_json_number(text) {
        return Err(syn::Error::new(
            span,
            format!("`{text}` is not a JSON number"),
        ));
    }
    if let Err(e) = serde_json::from_str::<serde_json::Value>(text) {
        return Err(syn::Error::new(span, format!("`{text}`: {e}")));
    }
    json.text.push_str(text);
    Ok(())
}

/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
fn is_json_number(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    let start = i;
    let n = digits(&mut i);
    if n == 0 || (n > 1 && b[start] == b'0') {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn object(group: &Group, pointer: &str, json: &mut Json) -> syn::Result<()> {
    let mut tokens = group.stream().into_iter().peekable();
    let mut keys: Vec<String> = Vec::new();
    json.text.push('{');
    loop {
        let Some(key_tt) = tokens.next() else { break };
        let key = match &key_tt {
            TokenTree::Literal(lit) => match syn::Lit::new(lit.clone()) {
                syn::Lit::Str(s) if s.suffix().is_empty() => s.value(),
                _ => {
                    return Err(syn::Error::new(
                        lit.span(),
                        "expected a member name (a string)",
                    ));
                }
            },
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "expected a member name (a string)",
                ));
            }
        };
        if keys.contains(&key) {
            return Err(syn::Error::new(
                key_tt.span(),
                format!("duplicate member {key:?}"),
            ));
        }
        if !keys.is_empty() {
            json.text.push(',');
        }
        json.text
            .push_str(&serde_json::to_string(&key).expect("strings serialize"));
        json.text.push(':');
        match tokens.next() {
            Some(TokenTree::Punct(p)) if p.as_char() == ':' => {}
            Some(other) => return Err(syn::Error::new(other.span(), "expected `:`")),
            None => {
                return Err(syn::Error::new(
                    key_tt.span(),
                    "expected `:` after the member name",
                ));
            }
        }
        let Some(v) = tokens.next() else {
            return Err(syn::Error::new(group.span_close(), "expected a value"));
        };
        value(v, &mut tokens, &format!("{pointer}/{}", escape(&key)), json)?;
        keys.push(key);
        match tokens.next() {
            None => break,
            Some(TokenTree::Punct(p)) if p.as_char() == ',' => {
                if tokens.peek().is_none() {
                    return Err(syn::Error::new(
                        p.span(),
                        "trailing comma (not allowed in JSON)",
                    ));
                }
            }
            Some(other) => return Err(syn::Error::new(other.span(), "expected `,` or `}`")),
        }
    }
    json.text.push('}');
    Ok(())
}

fn array(group: &Group, pointer: &str, json: &mut Json) -> syn::Result<()> {
    let mut tokens = group.stream().into_iter().peekable();
    json.text.push('[');
    let mut index = 0usize;
    loop {
        let Some(v) = tokens.next() else { break };
        if index > 0 {
            json.text.push(',');
        }
        value(v, &mut tokens, &format!("{pointer}/{index}"), json)?;
        index += 1;
        match tokens.next() {
            None => break,
            Some(TokenTree::Punct(p)) if p.as_char() == ',' => {
                if tokens.peek().is_none() {
                    return Err(syn::Error::new(
                        p.span(),
                        "trailing comma (not allowed in JSON)",
                    ));
                }
            }
            Some(other) => return Err(syn::Error::new(other.span(), "expected `,` or `]`")),
        }
    }
    json.text.push(']');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_numbers() {
        for ok in ["0", "-0", "5", "-12", "1.5", "1e3", "1E+3", "-2.5e-7"] {
            assert!(is_json_number(ok), "{ok}");
        }
        for bad in [
            "", "-", "01", "5.", ".5", "1e", "0x10", "1_000", "5u8", "+1",
        ] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }

    #[test]
    fn tokens_to_text_and_spans() {
        let tokens: TokenStream = r#"{"a": [-1, {"b~/": null}], "c": r"\d", "d": "\u{e9}\n"}"#
            .parse()
            .unwrap();
        let Some(TokenTree::Group(group)) = tokens.into_iter().next() else {
            panic!("a group")
        };
        let json = from_group(&group).unwrap();
        assert_eq!(json.text, r#"{"a":[-1,{"b~/":null}],"c":"\\d","d":"é\n"}"#);
        let pointers: Vec<&str> = json.spans.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            pointers,
            ["", "/a", "/a/0", "/a/1", "/a/1/b~0~1", "/c", "/d"]
        );
    }
}
